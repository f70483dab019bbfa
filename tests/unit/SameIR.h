#pragma once
// IR equality for the tests that build one design two ways (stamped or not, link nests
// compiled or not): every array the elaborator fills, and the names and metrics the
// passes derive.
#include "ir/Fabric.h"

#include <gtest/gtest.h>

namespace fabc::test {

inline void expectSameIR(const ir::Fabric &a, const ir::Fabric &b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    EXPECT_EQ(a.nodes[n].parent, b.nodes[n].parent) << n;
    EXPECT_EQ(a.nodes[n].name, b.nodes[n].name) << n;
    EXPECT_EQ(a.nodes[n].index, b.nodes[n].index) << n;
  }
  EXPECT_EQ(a.devModel, b.devModel);
  EXPECT_EQ(a.devLayout, b.devLayout);
  EXPECT_EQ(a.devNode, b.devNode);
  EXPECT_EQ(a.devPortBase, b.devPortBase);
  EXPECT_EQ(a.devRack, b.devRack);
  EXPECT_EQ(a.devU, b.devU);
  EXPECT_EQ(a.devTier, b.devTier);
  EXPECT_EQ(a.devAsn, b.devAsn);
  EXPECT_EQ(a.devLoopback, b.devLoopback);
  EXPECT_EQ(a.portDevice, b.portDevice);
  EXPECT_EQ(a.portLink, b.portLink);
  EXPECT_EQ(a.linkA, b.linkA);
  EXPECT_EQ(a.linkB, b.linkB);
  EXPECT_EQ(a.linkLength, b.linkLength);
  EXPECT_EQ(a.linkFlags, b.linkFlags);
  EXPECT_EQ(a.linkMedia, b.linkMedia);
  EXPECT_EQ(a.linkChoice, b.linkChoice);
  EXPECT_EQ(a.devChoice, b.devChoice);
  EXPECT_EQ(a.linkSubnet, b.linkSubnet);
  ASSERT_EQ(a.groups.size(), b.groups.size());
  for (size_t g = 0; g < a.groups.size(); ++g) {
    EXPECT_EQ(a.groups[g].node, b.groups[g].node) << g;
    EXPECT_EQ(a.groups[g].begin, b.groups[g].begin) << g;
    EXPECT_EQ(a.groups[g].end, b.groups[g].end) << g;
    EXPECT_EQ(a.groups[g].members, b.groups[g].members) << g;
  }
  for (size_t d = 0; d < a.numDevices(); ++d)
    EXPECT_EQ(a.deviceName(d), b.deviceName(d));
  EXPECT_EQ(a.metrics.gpus, b.metrics.gpus);
  EXPECT_EQ(a.metrics.transceivers, b.metrics.transceivers);
  ASSERT_EQ(a.instances.instances.size(), b.instances.instances.size());
  for (size_t i = 0; i < a.instances.instances.size(); ++i) {
    const ir::TemplateInstance &x = a.instances.instances[i], &y = b.instances.instances[i];
    EXPECT_EQ(x.node, y.node) << i;
    EXPECT_EQ(x.parent, y.parent) << i;
    EXPECT_EQ(x.argSet, y.argSet) << i;
    EXPECT_EQ(x.devBegin, y.devBegin) << i;
    EXPECT_EQ(x.devEnd, y.devEnd) << i;
    EXPECT_EQ(x.linkBegin, y.linkBegin) << i;
    EXPECT_EQ(x.linkEnd, y.linkEnd) << i;
  }
}

} // namespace fabc::test
