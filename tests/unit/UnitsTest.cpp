#include "ir/Units.h"

#include <gtest/gtest.h>

using namespace fabc;

TEST(Units, KnownUnitsScaleToSI) {
  ASSERT_NE(findUnit("Gb/s"), nullptr);
  EXPECT_DOUBLE_EQ(findUnit("Gb/s")->scale, 1e9);
  EXPECT_EQ(findUnit("Gb/s")->dim, dims::Bandwidth);
  EXPECT_DOUBLE_EQ(findUnit("TB/s")->scale, 8e12);
  EXPECT_EQ(findUnit("kW")->dim, dims::Power);
  EXPECT_EQ(findUnit("us")->dim, dims::Time);
  EXPECT_EQ(findUnit("furlong"), nullptr);
}

TEST(Units, DimensionAlgebra) {
  EXPECT_EQ(dims::Bandwidth * dims::Time, dims::Data);
  EXPECT_EQ(dims::Power * dims::Time, dims::Energy);
  EXPECT_TRUE((dims::Length / dims::Length).none());
  EXPECT_EQ(dimName(dims::Power), "power");
  EXPECT_EQ(dimName(dims::Power / dims::Length), "W/m");
}

TEST(Units, FormatPicksReadableUnit) {
  EXPECT_EQ(formatQuantity(1.2e6, dims::Power), "1.2 MW");
  EXPECT_EQ(formatQuantity(400e9, dims::Bandwidth), "400 Gb/s");
  EXPECT_EQ(formatQuantity(5e-9, dims::Time), "5 ns");
  EXPECT_EQ(formatQuantity(1500, dims::Length), "1.5 km");
}
