#pragma once
// NVUE keys an interface's IPv4 addresses by prefix (`address: {A.B.C.D/LEN: {}}`): the
// one place that spelling is written, for the loopback, the /31s, the SVIs and VRR.
#include "backends/Stream.h"
#include "backends/nvue/Dialect.h"

namespace fabc::nvue {

// `address: A.B.C.D/LEN` under the map the caller has open; t is scratch.
inline void writeAddress(YamlWriter &y, TextBuffer &t, uint32_t ip, unsigned len) {
  t.clear();
  appendIpv4(t, ip);
  fmt::format_to(fmt::appender(t), "/{}", len);
  y.member("address", view(t));
}

// The interface's ipv4 (or 5.0's ip) map holding one address.
inline void writeIpv4(YamlWriter &y, const Dialect &nv, TextBuffer &t, uint32_t ip, unsigned len) {
  y.beginMap(nv.ipv4);
  writeAddress(y, t, ip, len);
  y.endMap();
}

} // namespace fabc::nvue
