#include "backends/Backend.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

using namespace fabc;

namespace {
std::string tempDir() {
  char tmpl[] = "/tmp/fabc-unit-XXXXXX";
  return ::mkdtemp(tmpl);
}
bool exists(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0;
}
} // namespace

TEST(OutputDir, NeverWritesOutsideItsDirectory) {
  OutputDir out(tempDir());
  EXPECT_EQ(out.open("../escape.txt"), nullptr);
  EXPECT_EQ(out.open("a/../../escape.txt"), nullptr);
  EXPECT_EQ(out.open("/etc/passwd"), nullptr);
  EXPECT_NE(out.error().find("leaves the output directory"), std::string::npos);
}

TEST(OutputDir, FilesAppearOnlyOnCommit) {
  std::string dir = tempDir();
  {
    OutputDir out(dir);
    OutFile *f = out.open("sub/x.txt");
    ASSERT_NE(f, nullptr);
    f->write("hello\n");
    EXPECT_FALSE(exists(dir + "/sub/x.txt"));
    ASSERT_TRUE(out.commit());
  }
  std::ifstream in(dir + "/sub/x.txt");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "hello");
}

TEST(OutputDir, AbortLeavesNothing) {
  std::string dir = tempDir();
  {
    OutputDir out(dir);
    OutFile *f = out.open("y.txt");
    ASSERT_NE(f, nullptr);
    f->write("partial");
  } // destroyed without commit
  EXPECT_FALSE(exists(dir + "/y.txt"));
}

TEST(Csv, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(csvField("leaf[3]"), "leaf[3]");
  EXPECT_EQ(csvField("a,b"), "\"a,b\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
}
