# A non-ASCII character before a reference that a loop would list.
LIBRARIES := cublas curand
LDFLAGS += é,$(LIBRARIES)
LDFLAGS += $(foreach library,$(LIBRARIES),-l$(library))
