// Opening files under a directory so that no path and no symlink leads out of it, with
// openat2 and with the per-component fallback used where the kernel lacks it.
#include "serve/confined_directory.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;
using serving_method = confined_directory::method;

class ConfinedDirectory : public ::testing::TestWithParam<serving_method> {
 protected:
  void SetUp() override {
    temp_.write("root/index.html", "home");
    temp_.write("root/docs/page.html", "page");
    temp_.write("outside/secret.txt", "secret");
  }

  // What `relative` opens to: its contents, "<dir>" for a directory, or the error's name.
  std::string open(std::string_view relative) const {
    const confined_directory dir{root_, GetParam()};
    std::error_code ec;
    const auto fd = dir.open(relative, O_RDONLY | O_NONBLOCK, ec);
    if (!fd) return "error: " + ec.message();
    EXPECT_FALSE(ec);
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return "fstat failed";
    if (S_ISDIR(st.st_mode)) return "<dir>";
    char text[64];
    const auto n = ::read(fd.get(), text, sizeof text);
    return n < 0 ? "read failed" : std::string(text, static_cast<std::size_t>(n));
  }

  testing::temp_dir temp_;
  const fs::path root_ = temp_.path() / "root";
  const fs::path outside_ = temp_.path() / "outside";
};

TEST_P(ConfinedDirectory, OpensFilesAndDirectoriesBelow) {
  EXPECT_EQ(open("index.html"), "home");
  EXPECT_EQ(open("docs/page.html"), "page");
  EXPECT_EQ(open("docs//./page.html"), "page");
  EXPECT_EQ(open("/docs/page.html"), "page");  // relative whatever its first character
  EXPECT_EQ(open("docs"), "<dir>");
  EXPECT_EQ(open(""), "<dir>");
  EXPECT_EQ(open("."), "<dir>");
}

TEST_P(ConfinedDirectory, MissingFilesFailWithTheirReason) {
  EXPECT_EQ(open("missing.html"), "error: No such file or directory");
  EXPECT_EQ(open("index.html/x"), "error: Not a directory");
}

TEST_P(ConfinedDirectory, RefusesDotDot) {
  EXPECT_EQ(open("../outside/secret.txt"), "error: Invalid cross-device link");
  EXPECT_EQ(open("docs/../index.html"), "error: Invalid cross-device link");
}

TEST_P(ConfinedDirectory, RefusesSymlinksLeadingOut) {
  fs::create_symlink(outside_ / "secret.txt", root_ / "absolute.txt");
  fs::create_symlink("../outside/secret.txt", root_ / "relative.txt");
  fs::create_directory_symlink(outside_, root_ / "out");
  fs::create_symlink("/proc/self/root" + outside_.string() + "/secret.txt", root_ / "magic.txt");
  fs::create_symlink("loop", root_ / "loop");
  for (const auto* path :
       {"absolute.txt", "relative.txt", "out/secret.txt", "out", "magic.txt", "loop"}) {
    const auto opened = open(path);
    EXPECT_TRUE(opened.starts_with("error: ")) << path << ": " << opened;
  }
}

TEST_P(ConfinedDirectory, FollowsSymlinksStayingInside) {
  fs::create_symlink("docs/page.html", root_ / "relative.html");
  fs::create_symlink(root_ / "index.html", root_ / "absolute.html");
  fs::create_directory_symlink("docs", root_ / "latest");
  fs::create_symlink("../index.html", root_ / "docs" / "up.html");
  fs::create_symlink(".", root_ / "self");
  EXPECT_EQ(open("relative.html"), "page");
  EXPECT_EQ(open("absolute.html"), "home");
  EXPECT_EQ(open("latest/page.html"), "page");
  EXPECT_EQ(open("docs/up.html"), "home");
  EXPECT_EQ(open("self/index.html"), "home");
}

TEST_P(ConfinedDirectory, WorksThroughARootReachedBySymlink) {
  fs::create_directory_symlink(root_, temp_.path() / "root-link");
  const confined_directory dir{temp_.path() / "root-link", GetParam()};
  EXPECT_EQ(dir.path(), root_);
  std::error_code ec;
  EXPECT_TRUE(dir.open("docs/page.html", O_RDONLY, ec)) << ec.message();
}

INSTANTIATE_TEST_SUITE_P(Methods, ConfinedDirectory,
                         ::testing::Values(serving_method::beneath, serving_method::no_symlinks),
                         [](const auto& param_info) {
                           return param_info.param == serving_method::beneath ? "Openat2Beneath"
                                                                              : "NoSymlinks";
                         });

TEST(ConfinedDirectoryRoot, MustBeADirectory) {
  testing::temp_dir temp;
  const auto file = temp.write("file.txt", "x");
  EXPECT_THROW(confined_directory{file}, std::system_error);
  EXPECT_THROW(confined_directory{temp.path() / "missing"}, std::system_error);
}

}  // namespace
}  // namespace corocrawl
