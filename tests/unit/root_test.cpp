// classify_root: URLs, bare hosts and local directories, and the errors for everything else.

#include "url/root.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <variant>

#include "corocrawl/errors.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

namespace fs = std::filesystem;

/// A fresh directory per test holding site/index.html, removed at the end.
class RootTest : public ::testing::Test {
 protected:
  void SetUp() override { temp_.write("site/index.html", "<html></html>"); }

  std::string url_of(std::string_view text) {
    const root r = classify_root(text, dir_);
    const auto* u = std::get_if<url_root>(&r);
    if (u == nullptr) {
      ADD_FAILURE() << "\"" << text << "\" is not a URL root";
      return {};
    }
    return u->url;
  }

  fs::path directory_of(std::string_view text) {
    const root r = classify_root(text, dir_);
    const auto* d = std::get_if<directory_root>(&r);
    if (d == nullptr) {
      ADD_FAILURE() << "\"" << text << "\" is not a directory root";
      return {};
    }
    return d->path;
  }

  /// The message of the config_error classify_root throws; checks it is one line.
  std::string error_of(std::string_view text) {
    try {
      classify_root(text, dir_);
    } catch (const config_error& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      return message;
    }
    ADD_FAILURE() << "\"" << text << "\" was accepted";
    return {};
  }

  testing::temp_dir temp_;
  const fs::path dir_ = temp_.path();
};

TEST_F(RootTest, HttpUrlIsNormalised) {
  EXPECT_EQ(url_of("http://Example.COM"), "http://example.com/");
  EXPECT_EQ(url_of("https://example.com:443/a/../b#top"), "https://example.com/b");
  EXPECT_EQ(url_of("http://127.0.0.1:8080/x?q=1"), "http://127.0.0.1:8080/x?q=1");
}

TEST_F(RootTest, InternationalisedHostsBecomeALabels) {
  EXPECT_EQ(url_of("http://b\xC3\xBC"
                   "cher.test/"),
            "http://xn--bcher-kva.test/");
  EXPECT_EQ(url_of("b\xC3\xBC"
                   "cher.test/docs"),
            "http://xn--bcher-kva.test/docs");
  EXPECT_THROW(url_of("http://a\xFF.test/"), config_error);
}

TEST_F(RootTest, SchemeIsCaseInsensitive) {
  EXPECT_EQ(url_of("HTTP://example.com/Docs"), "http://example.com/Docs");
  EXPECT_EQ(url_of("HttpS://example.com"), "https://example.com/");
}

TEST_F(RootTest, BareHostGetsHttp) {
  EXPECT_EQ(url_of("example.com"), "http://example.com/");
  EXPECT_EQ(url_of("example.com/docs"), "http://example.com/docs");
  // A "://" inside the path or query does not make the text a URL.
  EXPECT_EQ(url_of("example.com/go?to=http://other.org/"),
            "http://example.com/go?to=http://other.org/");
}

TEST_F(RootTest, BareHostWithPortIsNotAScheme) {
  EXPECT_EQ(url_of("localhost:8080"), "http://localhost:8080/");
  EXPECT_EQ(url_of("localhost:8080/a"), "http://localhost:8080/a");
}

TEST_F(RootTest, RelativeDirectoryIsTakenFromBaseDir) {
  EXPECT_EQ(directory_of("site"), dir_ / "site");
  EXPECT_EQ(directory_of("./site"), dir_ / "site");
  EXPECT_EQ(directory_of("site/../site/"), dir_ / "site");
  EXPECT_EQ(directory_of("."), dir_);
}

TEST_F(RootTest, AbsoluteDirectory) {
  EXPECT_EQ(directory_of((dir_ / "site").string()), dir_ / "site");
  const root r = classify_root((dir_ / "site").string(), "/nonexistent-base");
  ASSERT_TRUE(std::holds_alternative<directory_root>(r));
  EXPECT_EQ(std::get<directory_root>(r).path, dir_ / "site");
}

TEST_F(RootTest, ExistingDirectoryWinsOverBareHost) {
  fs::create_directory(dir_ / "example.com");
  EXPECT_EQ(directory_of("example.com"), dir_ / "example.com");
}

TEST_F(RootTest, FileIsRejected) {
  const std::string message = error_of("site/index.html");
  EXPECT_NE(message.find("root \"site/index.html\" is a file: give its directory"),
            std::string::npos)
      << message;
}

TEST_F(RootTest, MissingPathIsRejected) {
  for (const char* text : {"./nope", "../nope-corocrawl-test", "/nonexistent-corocrawl/site",
                           "~/nonexistent-corocrawl-dir"}) {
    SCOPED_TRACE(text);
    const std::string message = error_of(text);
    EXPECT_NE(message.find(std::string("root \"") + text + "\": no such directory"),
              std::string::npos)
        << message;
  }
}

TEST_F(RootTest, MissingRelativePathWithoutDotIsABareHost) {
  // Only text that starts like a path ("/", "./", "../", "~") is taken for a missing path.
  EXPECT_EQ(url_of("site/nope"), "http://site/nope");
}

TEST_F(RootTest, UnsupportedSchemeIsRejected) {
  EXPECT_NE(error_of("ftp://x").find("root \"ftp://x\": unsupported scheme \"ftp\" (only http "
                                     "and https)"),
            std::string::npos);
  EXPECT_NE(error_of("FTP://x").find("unsupported scheme \"ftp\""), std::string::npos);
  EXPECT_NE(error_of("mailto:a@example.com").find("unsupported scheme \"mailto\""),
            std::string::npos);
  EXPECT_NE(error_of("javascript:void(0)").find("unsupported scheme \"javascript\""),
            std::string::npos);
  EXPECT_NE(error_of("file:///tmp").find("unsupported scheme \"file\""), std::string::npos);
}

TEST_F(RootTest, UrlWithoutHostIsRejected) {
  EXPECT_NE(error_of("http://").find("root \"http://\": URL has no host"), std::string::npos);
  EXPECT_NE(error_of("https:///path").find("URL has no host"), std::string::npos);
  EXPECT_NE(error_of("http:example.com").find("root \"http:example.com\""), std::string::npos);
}

TEST_F(RootTest, MalformedRootIsRejected) {
  EXPECT_NE(error_of("exa mple.com").find("root \"exa mple.com\""), std::string::npos);
  EXPECT_NE(error_of("example.com:port").find("root \"example.com:port\""), std::string::npos);
  EXPECT_NE(error_of("http://exa mple.com/").find("root \"http://exa mple.com/\""),
            std::string::npos);
  EXPECT_NE(error_of("").find("root \"\""), std::string::npos);
}

TEST_F(RootTest, PortMustFitSixteenBits) {
  EXPECT_NE(error_of("example.com:99999").find("root \"example.com:99999\": port must be 1..65535"),
            std::string::npos);
  EXPECT_NE(error_of("http://example.com:0/").find("port must be 1..65535"), std::string::npos);
  EXPECT_EQ(url_of("example.com:65535"), "http://example.com:65535/");
}

// ---- userinfo: the root's credentials, carried beside its URL and never shown --------------

TEST_F(RootTest, UserinfoIsTakenOutOfTheUrlAndPercentDecoded) {
  const root r = classify_root("http://Al%40ce:p%3Ass%20w@Example.com:8080/docs", dir_);
  const auto& u = std::get<url_root>(r);
  EXPECT_EQ(u.url, "http://example.com:8080/docs");
  EXPECT_EQ(u.user, "Al@ce:p:ss w");
  // Settings keep the userinfo, so that classifying the setting again gives the credentials.
  EXPECT_EQ(u.setting, "http://Al%40ce:p%3Ass%20w@example.com:8080/docs");
  EXPECT_EQ(std::get<url_root>(classify_root(u.setting, dir_)).user, u.user);
}

TEST_F(RootTest, UserinfoOfABareHostAndWithoutPassword) {
  const auto bare = std::get<url_root>(classify_root("ci:pw@example.com/x", dir_));
  EXPECT_EQ(bare.url, "http://example.com/x");
  EXPECT_EQ(bare.user, "ci:pw");
  const auto no_password = std::get<url_root>(classify_root("https://ci@example.com", dir_));
  EXPECT_EQ(no_password.url, "https://example.com/");
  EXPECT_EQ(no_password.user, "ci:");
  const auto empty_password = std::get<url_root>(classify_root("https://ci:@example.com", dir_));
  EXPECT_EQ(empty_password.user, "ci:");
}

TEST_F(RootTest, NoUserinfoNoCredentials) {
  const auto u = std::get<url_root>(classify_root("http://example.com/a?b=c@d", dir_));
  EXPECT_EQ(u.user, std::nullopt);
  EXPECT_EQ(u.url, "http://example.com/a?b=c@d");
  EXPECT_EQ(u.setting, u.url);
}

TEST_F(RootTest, UnusableUserinfoIsRejected) {
  EXPECT_NE(error_of("http://@example.com/").find("the user name before '@' is empty"),
            std::string::npos);
  EXPECT_NE(error_of("http://:pw@example.com/").find("the user name before '@' is empty"),
            std::string::npos);
  EXPECT_NE(error_of("http://a%3Ab:pw@example.com/").find("the user name contains ':'"),
            std::string::npos);
}

TEST_F(RootTest, ErrorMessagesNeverShowTheUserinfo) {
  for (const char* text :
       {"http://ci:s3cret@example.com:99999/", "http://ci:s3cret@example.com:1x",
        "ftp://ci:s3cret@example.com/", "http://ci:s3cret@", "ci:s3cret@example.com:1x",
        "http://ci:s3#cret@example.com:5/", "http://ci:s3?cret@example.com/", "http://:s3cret@x/",
        "http://ci:s3cret@exa mple.com/"}) {
    const std::string message = error_of(text);
    EXPECT_EQ(message.find("s3"), std::string::npos) << message;
    EXPECT_EQ(message.find("ci"), std::string::npos) << message;
    EXPECT_NE(message.find("***@"), std::string::npos) << message;
  }
  EXPECT_NE(error_of("http://ci:s3cret@example.com:99999/")
                .find("root \"http://***@example.com:99999/\": port must be 1..65535"),
            std::string::npos);
  // A path is shown as it is: an '@' in it is no userinfo.
  EXPECT_NE(error_of("./no@such/dir").find("root \"./no@such/dir\": no such directory"),
            std::string::npos);
}

}  // namespace
}  // namespace corocrawl
