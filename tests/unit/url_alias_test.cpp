// --base-url's rewriting: the published address and what lies below it, nothing else.
#include "url/url_alias.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace corocrawl {
namespace {

std::optional<std::string> rewritten(const url_alias& alias, std::string_view url) {
  std::string out = "untouched";
  if (!alias.rewrite(url, out)) {
    EXPECT_EQ(out, "untouched");
    return std::nullopt;
  }
  return out;
}

TEST(UrlAlias, RewritesTheAddressAndWhatLiesBelowIt) {
  const url_alias alias{"https://example.com/docs/", "http://127.0.0.1:4000/docs/"};
  EXPECT_EQ(rewritten(alias, "https://example.com/docs/"), "http://127.0.0.1:4000/docs/");
  EXPECT_EQ(rewritten(alias, "https://example.com/docs/a/b.html?x=1#top"),
            "http://127.0.0.1:4000/docs/a/b.html?x=1#top");
  EXPECT_EQ(rewritten(alias, "https://example.com/docs"), "http://127.0.0.1:4000/docs");
  EXPECT_EQ(rewritten(alias, "https://example.com/docs?x"), "http://127.0.0.1:4000/docs?x");
}

TEST(UrlAlias, LeavesEverythingElse) {
  const url_alias alias{"https://example.com/docs/", "http://127.0.0.1:4000/docs/"};
  for (const auto* url : {"https://example.com/", "https://example.com/docs2/",
                          "http://example.com/docs/", "https://example.com.evil/docs/",
                          "https://example.com:8443/docs/", "https://other.test/docs/"}) {
    EXPECT_EQ(rewritten(alias, url), std::nullopt) << url;
  }
}

TEST(UrlAlias, ASiteAtTheRootOfItsHost) {
  const url_alias alias{"https://example.com/", "http://127.0.0.1:4000/"};
  EXPECT_EQ(rewritten(alias, "https://example.com/a.html"), "http://127.0.0.1:4000/a.html");
  EXPECT_EQ(rewritten(alias, "https://example.com.evil/"), std::nullopt);
  EXPECT_EQ(rewritten(alias, "https://example.com:444/"), std::nullopt);
}

}  // namespace
}  // namespace corocrawl
