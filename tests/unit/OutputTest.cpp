#include "backends/Backend.h"
#include "backends/FsTree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>
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

TEST(Csv, TextThatASpreadsheetWouldRunStartsWithAQuote) {
  EXPECT_EQ(csvField("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(csvField("@SUM(A1:A9)"), "'@SUM(A1:A9)");
  EXPECT_EQ(csvField("+cmd|' /C calc'!A0"), "'+cmd|' /C calc'!A0");
  EXPECT_EQ(csvField("-2+3"), "'-2+3");
  EXPECT_EQ(csvField("\tx"), "'\tx");
  EXPECT_EQ(csvField("\rx"), "\"'\rx\"");
  // Numbers stay numbers.
  EXPECT_EQ(csvField("-3"), "-3");
  EXPECT_EQ(csvField("-2.5"), "-2.5");
  EXPECT_EQ(csvField("+1e-3"), "+1e-3");
  EXPECT_EQ(csvField("leaf-1"), "leaf-1");
}

namespace {
std::string slurp(const std::string &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
// Every entry of `dir` (recursively, sorted), as paths relative to it.
std::vector<std::string> tree(const std::string &dir, const std::string &prefix = "") {
  std::vector<std::string> r;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n == "." || n == "..")
        continue;
      r.push_back(prefix + n);
      struct stat st;
      if (::lstat((dir + "/" + n).c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        for (auto &s : tree(dir + "/" + n, prefix + n + "/"))
          r.push_back(s);
    }
    ::closedir(d);
  }
  std::sort(r.begin(), r.end());
  return r;
}
std::vector<std::string> siblings(const std::string &dir) { // staging leftovers beside DIR
  std::string parent = dir.substr(0, dir.rfind('/')), name = dir.substr(dir.rfind('/') + 1);
  std::vector<std::string> r;
  for (auto &e : tree(parent))
    if (e.rfind("." + name + ".fabc-", 0) == 0 && e.find('/') == std::string::npos)
      r.push_back(e);
  return r;
}
bool build(const std::string &dir, const std::vector<std::string> &files, std::string *err = nullptr) {
  OutputDir out(dir);
  for (auto &f : files) {
    OutFile *o = out.open(f);
    if (!o) {
      if (err)
        *err = out.error();
      return false;
    }
    o->write(f + "\n");
  }
  bool ok = out.commit();
  if (err)
    *err = out.error();
  return ok;
}
} // namespace

TEST(OutputDir, ManifestListsTheBuildSorted) {
  std::string dir = tempDir() + "/out";
  ASSERT_TRUE(build(dir, {"z.txt", "a/b.txt", "a/a.txt"}));
  std::string m = slurp(dir + "/.fabc-manifest");
  EXPECT_EQ(m.substr(m.find('\n') + 1), "a/a.txt\na/b.txt\nz.txt\n");
  EXPECT_EQ(m.rfind("# fabc ", 0), 0u);
  EXPECT_TRUE(siblings(dir).empty());
}

TEST(OutputDir, RebuildingSmallerRemovesTheFilesNoLongerWritten) {
  std::string dir = tempDir() + "/out";
  ASSERT_TRUE(build(dir, {"sonic/leaf1/c.json", "sonic/leaf2/c.json", "summary.json"}));
  std::ofstream(dir + "/sonic/leaf1/c.json.fabc-tmp-4242") << "old fabc's temporary\n";
  ASSERT_TRUE(build(dir, {"sonic/leaf1/c.json", "summary.json"}));
  EXPECT_EQ(tree(dir), (std::vector<std::string>{".fabc-manifest", "sonic", "sonic/leaf1", "sonic/leaf1/c.json",
                                                 "summary.json"}));
  EXPECT_TRUE(siblings(dir).empty());
}

TEST(OutputDir, ForeignFilesAreKeptAndStaleFabcFilesRemoved) {
  std::string dir = tempDir() + "/out";
  ASSERT_TRUE(build(dir, {"sonic/leaf1/c.json", "sonic/leaf2/c.json", "summary.json"}));
  std::ofstream(dir + "/NOTES.md") << "mine\n";
  std::ofstream(dir + "/sonic/leaf2/hand-edit.txt") << "mine too\n";
  ASSERT_TRUE(build(dir, {"sonic/leaf1/c.json", "bom/bom.csv"}));
  EXPECT_EQ(tree(dir), (std::vector<std::string>{".fabc-manifest", "NOTES.md", "bom", "bom/bom.csv", "sonic",
                                                 "sonic/leaf1", "sonic/leaf1/c.json", "sonic/leaf2",
                                                 "sonic/leaf2/hand-edit.txt"}));
  std::string m = slurp(dir + "/.fabc-manifest");
  EXPECT_EQ(m.substr(m.find('\n') + 1), "bom/bom.csv\nsonic/leaf1/c.json\n");
  EXPECT_EQ(slurp(dir + "/NOTES.md"), "mine\n");
  EXPECT_TRUE(siblings(dir).empty());
}

TEST(OutputDir, ASymlinkedOutputDirectoryIsReplacedAtItsTarget) {
  std::string base = tempDir();
  ASSERT_TRUE(build(base + "/real", {"old.txt"}));
  ASSERT_EQ(::symlink("real", (base + "/link").c_str()), 0);
  ASSERT_TRUE(build(base + "/link", {"new.txt"}));
  struct stat st;
  ASSERT_EQ(::lstat((base + "/link").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(tree(base), (std::vector<std::string>{"link", "real", "real/.fabc-manifest", "real/new.txt"}));
}

TEST(OutputDir, LeftoversOfKilledBuildsAreRemovedButNotThoseOfRunningOnes) {
  std::string base = tempDir(), dir = base + "/out";
  ASSERT_EQ(::mkdir((base + "/.out.fabc-dead0001").c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((base + "/.out.fabc-dead0001/sonic").c_str(), 0700), 0);
  std::ofstream(base + "/.out.fabc-dead0001/sonic/c.json") << "x";
  std::ofstream(base + "/.out.fabc-dead0001/.fabc-staging-marker"); // made by fabc, as every staging directory
  ASSERT_EQ(::mkdir((base + "/.out.fabc-live0001").c_str(), 0700), 0);
  std::ofstream(base + "/.out.fabc-live0001/.fabc-staging-marker");
  int live = ::open((base + "/.out.fabc-live0001").c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_EQ(::flock(live, LOCK_EX), 0); // as a running build holds its staging directory
  ASSERT_TRUE(build(dir, {"a.txt"}));
  EXPECT_EQ(siblings(dir), (std::vector<std::string>{".out.fabc-live0001"}));
  ::close(live);
  ASSERT_TRUE(build(dir, {"a.txt"}));
  EXPECT_TRUE(siblings(dir).empty());
}

// Issue 30: only what fabc made is removed as a leftover, never a user's directory whose
// name merely starts like a staging directory's (a backup), marker or no marker.
TEST(OutputDir, AUsersDirectoryNamedLikeStagingIsKept) {
  std::string base = tempDir(), dir = base + "/out";
  for (const char *n : {"/.out.fabc-backup", "/.out.fabc-oldbuild", "/.out.fabc-backup12345"}) {
    ASSERT_EQ(::mkdir((base + n).c_str(), 0700), 0);
    std::ofstream(base + n + "/keep.txt") << "mine";
  }
  std::ofstream(base + "/.out.fabc-backup12345/.fabc-staging-marker"); // a marker, but not a staging name
  ASSERT_TRUE(build(dir, {"a.txt"}));
  ASSERT_TRUE(build(dir, {"b.txt"}));
  EXPECT_EQ(siblings(dir), (std::vector<std::string>{".out.fabc-backup", ".out.fabc-backup12345", ".out.fabc-oldbuild"}));
  EXPECT_EQ(slurp(base + "/.out.fabc-oldbuild/keep.txt"), "mine");
  EXPECT_EQ(tree(dir), (std::vector<std::string>{".fabc-manifest", "b.txt"})); // no marker left in DIR
}

TEST(OutputDir, ASubdirectorySwappedForASymlinkMidBuildCannotRedirectWrites) {
  std::string dir = tempDir() + "/out", outside = tempDir();
  OutputDir out(dir);
  bool swapped = false;
  out.beforeEnterHook = [&](const std::string &relDir) {
    if (relDir != "sw/b" || swapped)
      return;
    // Another process replaces a staged directory by a link to elsewhere.
    std::string stage = out.stagingPath();
    ASSERT_EQ(::rename((stage + "/sw").c_str(), (stage + "/moved").c_str()), 0);
    ASSERT_EQ(::symlink(outside.c_str(), (stage + "/sw").c_str()), 0);
    swapped = true;
  };
  OutFile *a = out.open("sw/a/config.txt");
  ASSERT_NE(a, nullptr) << out.error();
  a->write("a\n");
  EXPECT_EQ(out.open("sw/b/config.txt"), nullptr);
  EXPECT_TRUE(swapped);
  EXPECT_EQ(out.error(), dir + "/sw: a symbolic link inside the output directory");
  a->write("more\n"); // still the directory it was opened in, wherever that moved
  EXPECT_TRUE(tree(outside).empty()) << "wrote through the symlink";
  out.abort();
  EXPECT_TRUE(tree(outside).empty());
  EXPECT_TRUE(siblings(dir).empty());
  EXPECT_FALSE(exists(dir));
}

TEST(OutputDir, AParkedFileReopensRelativeToDescriptorsNotThroughALink) {
  std::string dir = tempDir() + "/out", outside = tempDir();
  OutputDir out(dir);
  OutFile *a = out.open("sw/a.txt");
  ASSERT_NE(a, nullptr);
  a->write("1\n");
  for (size_t i = 0; i <= OutputDir::MaxOpenFiles; ++i) // parks a.txt
    ASSERT_NE(out.open("other/" + std::to_string(i)), nullptr);
  std::string stage = out.stagingPath();
  ASSERT_EQ(::rename((stage + "/sw").c_str(), (stage + "/moved").c_str()), 0);
  ASSERT_EQ(::symlink(outside.c_str(), (stage + "/sw").c_str()), 0);
  std::ofstream(outside + "/a.txt") << "victim\n";
  a->write("2\n"); // reopens sw/a.txt: refused, the link is not followed
  EXPECT_FALSE(out.commit());
  EXPECT_EQ(out.error(), dir + "/sw/a.txt: a symbolic link inside the output directory");
  EXPECT_EQ(slurp(outside + "/a.txt"), "victim\n");
  EXPECT_FALSE(exists(dir));
}

TEST(OutputDir, ATamperedStagingDirectoryIsNotCommitted) {
  std::string dir = tempDir() + "/out", outside = tempDir();
  OutputDir out(dir);
  OutFile *a = out.open("sw/a.txt");
  ASSERT_NE(a, nullptr);
  a->write("1\n");
  a->close();
  std::string stage = out.stagingPath();
  ASSERT_EQ(::rename((stage + "/sw").c_str(), (stage + "/moved").c_str()), 0);
  ASSERT_EQ(::symlink(outside.c_str(), (stage + "/sw").c_str()), 0);
  EXPECT_FALSE(out.commit());
  EXPECT_EQ(out.error(), dir + "/sw: a symbolic link inside the output directory");
  EXPECT_FALSE(exists(dir));
  EXPECT_TRUE(siblings(dir).empty());
}

TEST(OutputDir, AFailedWriteSaysWhyAndLeavesNothing) {
  // A file size limit stands in for a full disk: the write fails with EFBIG, as it
  // would with ENOSPC (tests/lit/output/full-disk.test uses a real full tmpfs).
  std::string base = tempDir(), dir = base + "/deep/out";
  struct sigaction ign, old;
  std::memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  ::sigaction(SIGXFSZ, &ign, &old);
  struct rlimit saved, low;
  ::getrlimit(RLIMIT_FSIZE, &saved);
  low = saved;
  low.rlim_cur = 1 << 20;
  ::setrlimit(RLIMIT_FSIZE, &low);
  std::string err;
  {
    OutputDir out(dir);
    OutFile *f = out.open("sonic/leaf3/config_db.json");
    ASSERT_NE(f, nullptr);
    std::string big(4 << 20, 'x');
    f->write(big);
    EXPECT_FALSE(out.commit());
    err = out.error();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  ::sigaction(SIGXFSZ, &old, nullptr);
  EXPECT_EQ(err, dir + "/sonic/leaf3/config_db.json: " + std::strerror(EFBIG));
  EXPECT_TRUE(tree(base).empty()) << "no staging directory, no empty directory";
}

TEST(OutputDir, ConcurrentBuildsEachCommitACompleteBuild) {
  std::string dir = tempDir() + "/out";
  std::vector<std::string> a, b;
  for (int i = 0; i < 200; ++i)
    a.push_back("sw/" + std::to_string(i) + "/a.txt");
  for (int i = 0; i < 100; ++i)
    b.push_back("sw/" + std::to_string(i) + "/b.txt");
  OutputDir x(dir), y(dir);
  for (auto &f : a)
    x.open(f)->write("a\n");
  for (auto &f : b)
    y.open(f)->write("b\n");
  ASSERT_TRUE(x.commit()) << x.error();
  ASSERT_TRUE(y.commit()) << y.error();
  std::string m = slurp(dir + "/.fabc-manifest");
  std::sort(b.begin(), b.end());
  std::string want;
  for (auto &f : b)
    want += f + "\n";
  EXPECT_EQ(m.substr(m.find('\n') + 1), want);
  EXPECT_EQ(tree(dir).size(), 1 + 1 + 100 * 2); // manifest, sw, and each sw/N with its file
  EXPECT_TRUE(siblings(dir).empty());
}

// A build killed (SIGKILL) between creating its staging directory and marking it leaves it
// empty and unmarked: the next build's cleanup removes it (rmdir), but never an unmarked
// directory with something in it, nor one a live build holds.
TEST(OutputDir, AnEmptyUnmarkedStagingLeftoverIsRemoved) {
  std::string dir = tempDir();
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  std::string empty = ".out.fabc-" + fabc::fstree::randomName(), full = ".out.fabc-" + fabc::fstree::randomName(),
              held = ".out.fabc-" + fabc::fstree::randomName();
  ASSERT_EQ(::mkdirat(fd, empty.c_str(), 0700), 0);
  ASSERT_EQ(::mkdirat(fd, full.c_str(), 0700), 0);
  ASSERT_EQ(::mkdirat(fd, held.c_str(), 0700), 0);
  std::ofstream(dir + "/" + full + "/user-file") << "kept";
  int h = ::openat(fd, held.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_EQ(::flock(h, LOCK_EX), 0);
  fabc::fstree::removeUnlocked(fd, ".out.fabc-");
  struct stat st;
  EXPECT_NE(::fstatat(fd, empty.c_str(), &st, 0), 0);
  EXPECT_EQ(::fstatat(fd, full.c_str(), &st, 0), 0);
  EXPECT_EQ(::fstatat(fd, held.c_str(), &st, 0), 0);
  ::close(h);
  ::close(fd);
}

TEST(OutputDir, OwnerOnlyFilesAreNeverReadableByOthers) {
  // A file that carries a secret is 0600 from its creation in the staging directory, not
  // only once it is in DIR; the others get 0666 less the umask.
  std::string dir = tempDir() + "/out";
  mode_t saved = ::umask(022);
  {
    OutputDir out(dir);
    OutFile *secret = out.open("sw/frr.conf", OutputDir::Access::OwnerOnly);
    OutFile *plain = out.open("sw/wiring.csv");
    ASSERT_NE(secret, nullptr);
    ASSERT_NE(plain, nullptr);
    secret->write("neighbor FABRIC password k\n");
    plain->write("a,b\n");
    struct stat st;
    ASSERT_EQ(::stat((out.stagingPath() + "/sw/frr.conf").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    ASSERT_TRUE(out.commit());
  }
  ::umask(saved);
  struct stat st;
  ASSERT_EQ(::stat((dir + "/sw/frr.conf").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  ASSERT_EQ(::stat((dir + "/sw/wiring.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
}
