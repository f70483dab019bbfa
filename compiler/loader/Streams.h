#pragma once
// Reading an input that is a stream (fabc's '-', a pipe, /dev/stdin, <(...)): readSource
// (loader/Imports.h) reads named ones itself; this is for a descriptor already open.
#include <cstdint>
#include <string>

namespace fabc {

// Reads `fd` to its end, at most `maxSize` bytes: false with `error` ("too large: ..."
// past the limit, which stops the read there) or the system's error.
bool readStream(int fd, uint64_t maxSize, std::string &out, std::string &error);

} // namespace fabc
