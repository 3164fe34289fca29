// Compiles kernels at run time with NVRTC, with options collected by a helper: fast math, no
// fused multiply-add in debug builds, line info for the profiler, and a register cap.
#include <nvrtc.h>
#include <string>
#include <vector>

struct JitConfig {
  bool debug = false;
  bool profile = false;
  int max_registers = 0;
};

static std::vector<std::string> jit_options(const JitConfig& cfg) {
  std::vector<std::string> opts = {"--std=c++17", "--use_fast_math", "-default-device"};
  if (cfg.debug) {
    opts.push_back("-G");
    opts.push_back("--fmad=false");
  }
  if (cfg.profile) opts.push_back("-lineinfo");
  if (cfg.max_registers > 0) opts.push_back("--maxrregcount=" + std::to_string(cfg.max_registers));
  return opts;
}

bool jit_compile(nvrtcProgram prog, const JitConfig& cfg, std::string& log) {
  std::vector<std::string> opts = jit_options(cfg);
  std::vector<const char*> raw;
  for (const std::string& o : opts) raw.push_back(o.c_str());
  nvrtcResult res = nvrtcCompileProgram(prog, (int)raw.size(), raw.data());
  size_t size = 0;
  nvrtcGetProgramLogSize(prog, &size);
  log.resize(size);
  nvrtcGetProgramLog(prog, &log[0]);
  return res == NVRTC_SUCCESS;
}
