# Test runs only: .cargo/config.toml points CMAKE_TOOLCHAIN_FILE here for the processes cargo
# runs. The integration tests configure about a hundred fresh CMake projects with hipcc as the C++
# compiler, and detecting it (its id and ABI, then the checks FindThreads and hip-config.cmake run)
# took five hipcc runs per configure, close to half of their hipcc time. The first configure of a
# compiler (path, its timestamp, CMAKE_CXX_FLAGS, CMake version, generator) stores what it found
# under $HIPPORT_CMAKE_DETECT_DIR; later fresh configures load it, as a re-configure of one build
# directory loads CMakeFiles/<version>/CMakeCXXCompiler.cmake. Projects still configure and build
# with the real hipcc.
include_guard(GLOBAL)
get_property(_hp_in_try GLOBAL PROPERTY IN_TRY_COMPILE)
if(_hp_in_try OR NOT DEFINED ENV{HIPPORT_CMAKE_DETECT_DIR} OR NOT CMAKE_CXX_COMPILER)
  return()
endif()
find_program(_hp_cxx NAMES "${CMAKE_CXX_COMPILER}" NO_CACHE)
if(NOT _hp_cxx)
  return()
endif()
file(TIMESTAMP "${_hp_cxx}" _hp_stamp UTC)
string(SHA1 _hp_key "${_hp_cxx};${_hp_stamp};${CMAKE_CXX_FLAGS};${CMAKE_VERSION};${CMAKE_GENERATOR}")
set(_hp_dir "$ENV{HIPPORT_CMAKE_DETECT_DIR}/${_hp_key}")
set(_hp_files "${CMAKE_BINARY_DIR}/CMakeFiles/${CMAKE_VERSION}")
set(_hp_checks CMAKE_HAVE_LIBC_PTHREAD HIP_CLANG_SUPPORTS_PARALLEL_JOBS)
if(EXISTS "${_hp_dir}/checks.cmake")
  if(NOT EXISTS "${_hp_files}/CMakeCXXCompiler.cmake")
    file(COPY "${_hp_dir}/CMakeCXXCompiler.cmake" DESTINATION "${_hp_files}")
  endif()
  include("${_hp_dir}/checks.cmake")
else()
  # At the end of the configure: store the detection, written aside and renamed into place so
  # that tests configuring at the same time never read half of it.
  function(_hp_store)
    if(NOT EXISTS "${_hp_files}/CMakeCXXCompiler.cmake" OR EXISTS "${_hp_dir}")
      return()
    endif()
    string(RANDOM LENGTH 12 _tmp)
    set(_tmp "${_hp_dir}.${_tmp}")
    file(COPY "${_hp_files}/CMakeCXXCompiler.cmake" DESTINATION "${_tmp}")
    set(_text "")
    foreach(_v IN LISTS _hp_checks)
      if(DEFINED CACHE{${_v}})
        string(APPEND _text "set(${_v} \"$CACHE{${_v}}\" CACHE INTERNAL \"\")\n")
      endif()
    endforeach()
    file(WRITE "${_tmp}/checks.cmake" "${_text}")
    file(RENAME "${_tmp}" "${_hp_dir}" RESULT _renamed)
    file(REMOVE_RECURSE "${_tmp}")
  endfunction()
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _hp_store)
endif()
