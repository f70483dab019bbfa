// ir::StringPool: ids are dense from 0 (""), one per distinct string, whatever the table
// of recent strings in front of the hash map holds; a moved pool keeps its ids.
#include "ir/Fabric.h"

#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

using fabc::ir::StringPool;

TEST(StringPool, EmptyIsIdZeroAndIdsAreDense) {
  StringPool p;
  EXPECT_EQ(p.intern(""), 0u);
  EXPECT_EQ(p.intern(std::string_view()), 0u); // no data at all (UBSan: no memcmp of null)
  EXPECT_EQ(p.str(0), "");
  EXPECT_EQ(p.intern("a"), 1u);
  EXPECT_EQ(p.intern(""), 0u);
  EXPECT_EQ(p.intern("a"), 1u);
  EXPECT_EQ(p.size(), 2u);
}

TEST(StringPool, OneIdPerStringAcrossRecentSlots) {
  // Names that share a length and their first and last characters land in one slot of the
  // recent table: node000120 .. node000990, cx, p, interleaved as an explicit file's links.
  StringPool p;
  std::unordered_map<std::string, uint32_t> seen{{"", 0}};
  for (int round = 0; round < 3; ++round)
    for (int i = 0; i < 1000; ++i) {
      for (std::string s : {"node" + std::to_string(100000 + (i % 97) * 10), std::string("cx"),
                            "leaf" + std::to_string(i % 13), std::string("p"), std::string()}) {
        uint32_t id = p.intern(s);
        auto [it, fresh] = seen.try_emplace(s, id);
        ASSERT_EQ(it->second, id) << s;
        EXPECT_EQ(p.str(id), s);
        if (fresh) {
          EXPECT_EQ(id, seen.size() - 1) << s; // the next id
        }
      }
    }
  EXPECT_EQ(p.size(), seen.size());
  // A string the pool holds is found again from another buffer (no pointer compare).
  std::string copy = "node100010";
  EXPECT_EQ(p.intern(copy), seen["node100010"]);
  EXPECT_EQ(p.lookup("nope"), fabc::ir::None);
}

TEST(StringPool, MovedPoolKeepsItsIds) {
  StringPool a;
  uint32_t x = a.intern("spine"), y = a.intern("leaf");
  StringPool b(std::move(a));
  EXPECT_EQ(b.intern("spine"), x);
  EXPECT_EQ(b.intern("leaf"), y);
  EXPECT_EQ(b.str(x), "spine");
  StringPool c;
  c = std::move(b);
  EXPECT_EQ(c.intern("leaf"), y);
  EXPECT_EQ(c.intern("new"), 3u);
}
