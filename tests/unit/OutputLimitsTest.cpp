// OutputDir under pressure: thousands of files with a bounded number of open FILEs, and
// symbolic links that would lead a write outside the output directory.
#include "backends/Backend.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace fabc;

namespace {
std::string tempDir() {
  char tmpl[] = "/tmp/fabc-unit-XXXXXX";
  return ::mkdtemp(tmpl);
}
std::string slurp(const std::string &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
size_t openFds() {
  size_t n = 0;
  if (DIR *d = ::opendir("/proc/self/fd")) {
    while (::readdir(d))
      ++n;
    ::closedir(d);
  }
  return n;
}
bool isLink(const std::string &p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}
} // namespace

// Beside the FILEs: the staging root, its parent and the last directory entered.
constexpr size_t DirFds = 3;

TEST(OutputDir, ThousandsOfFilesWithFewOpenDescriptors) {
  std::string dir = tempDir();
  size_t before = openFds();
  OutputDir out(dir);
  std::vector<OutFile *> files;
  for (int i = 0; i < 3000; ++i) {
    OutFile *f = out.open("sw/" + std::to_string(i) + "/config.txt");
    ASSERT_NE(f, nullptr) << out.error();
    f->print("first {}\n", i);
    files.push_back(f);
    ASSERT_LE(openFds(), before + OutputDir::MaxOpenFiles + DirFds);
  }
  for (int i = 0; i < 3000; ++i) // parked files reopen for appending
    files[i]->print("second {}\n", i);
  EXPECT_LE(openFds(), before + OutputDir::MaxOpenFiles + DirFds);
  ASSERT_TRUE(out.commit()) << out.error();
  EXPECT_EQ(slurp(dir + "/sw/0/config.txt"), "first 0\nsecond 0\n");
  EXPECT_EQ(slurp(dir + "/sw/2999/config.txt"), "first 2999\nsecond 2999\n");
  EXPECT_LE(openFds(), before + 1);
}

TEST(OutputDir, RefusesSymlinkedSubdirectories) {
  std::string dir = tempDir(), outside = tempDir();
  ASSERT_EQ(::symlink(outside.c_str(), (dir + "/bom").c_str()), 0);
  // Files are staged elsewhere; the commit finds the link and moves nothing.
  OutputDir out(dir);
  EXPECT_EQ(out.open("a/bom/../../bom/x"), nullptr);
  OutFile *bom = out.open("bom/bom.csv");
  ASSERT_NE(bom, nullptr) << out.error();
  bom->write("x\n");
  OutFile *ok = out.open("cabling/plan.csv");
  ASSERT_NE(ok, nullptr);
  ok->write("x\n");
  ASSERT_FALSE(out.commit());
  EXPECT_NE(out.error().find("bom: a symbolic link inside the output directory"), std::string::npos) << out.error();
  EXPECT_FALSE(isLink(dir + "/cabling")) << "nothing moves when one file cannot";
  struct stat st;
  EXPECT_NE(::lstat((dir + "/cabling").c_str(), &st), 0);
  DIR *d = ::opendir(outside.c_str());
  int entries = 0;
  while (dirent *e = ::readdir(d))
    entries += std::string(e->d_name) != "." && std::string(e->d_name) != "..";
  ::closedir(d);
  EXPECT_EQ(entries, 0) << "wrote through the symlink";
}

TEST(OutputDir, ReplacesASymlinkedFileInsteadOfWritingThroughIt) {
  std::string dir = tempDir(), outside = tempDir();
  std::ofstream(outside + "/victim") << "keep\n";
  ASSERT_EQ(::symlink((outside + "/victim").c_str(), (dir + "/plan.csv").c_str()), 0);
  OutputDir out(dir);
  OutFile *f = out.open("plan.csv");
  ASSERT_NE(f, nullptr) << out.error();
  f->write("new\n");
  ASSERT_TRUE(out.commit());
  EXPECT_FALSE(isLink(dir + "/plan.csv"));
  EXPECT_EQ(slurp(dir + "/plan.csv"), "new\n");
  EXPECT_EQ(slurp(outside + "/victim"), "keep\n");
}
