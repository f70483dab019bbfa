#include "backends/Backend.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sys/resource.h>
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

TEST(OutputDir, ClosedFilesStayPendingAndManyFilesFit) {
  // One file per switch: each is closed when written, so thousands stay under the
  // open-file limit; none appears before commit; a write after close fails the build.
  struct Limit { // a low open-file limit for this test only
    struct rlimit saved;
    Limit() {
      ::getrlimit(RLIMIT_NOFILE, &saved);
      struct rlimit low = saved;
      low.rlim_cur = std::min<rlim_t>(saved.rlim_cur, 256);
      ::setrlimit(RLIMIT_NOFILE, &low);
    }
    ~Limit() { ::setrlimit(RLIMIT_NOFILE, &saved); }
  } limit;
  std::string dir = tempDir();
  {
    OutputDir out(dir);
    for (int i = 0; i < 3000; ++i) {
      OutFile *f = out.open("sw/" + std::to_string(i) + ".conf");
      ASSERT_NE(f, nullptr) << out.error();
      f->print("switch {}\n", i);
      f->close();
    }
    EXPECT_FALSE(exists(dir + "/sw/0.conf"));
    ASSERT_TRUE(out.commit()) << out.error();
  }
  EXPECT_TRUE(exists(dir + "/sw/2999.conf"));
  std::string dir2 = tempDir();
  OutputDir out(dir2);
  OutFile *f = out.open("late.txt");
  ASSERT_NE(f, nullptr);
  f->close();
  f->write("too late");
  EXPECT_FALSE(out.commit());
  EXPECT_FALSE(exists(dir2 + "/late.txt"));
}
