// The attribute value parsers on their own (html/attribute_values.hpp): the URLs of a srcset,
// as HTML's "parse a srcset attribute" reads them, and the URL of a <meta http-equiv=refresh>
// content, as its "shared declarative refresh steps" do. The URLs come as written (not
// resolved); page_references_test.cpp reads the same values through whole pages.

#include "html/attribute_values.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corocrawl {
namespace {

using views = std::vector<std::string_view>;

TEST(SrcsetUrls, CandidatesAreSeparatedByCommas) {
  EXPECT_EQ(srcset_urls("a.png"), views{"a.png"});
  EXPECT_EQ(srcset_urls("a.png 1x, b.png 2x"), (views{"a.png", "b.png"}));
  EXPECT_EQ(srcset_urls("  a.png 100w,b.png   200w ,c.png"), (views{"a.png", "b.png", "c.png"}));
  EXPECT_EQ(srcset_urls("a.png\t1x,\nb.png\f2x\r"), (views{"a.png", "b.png"}));
}

TEST(SrcsetUrls, AUrlMayHoldCommasButTrailingOnesEndIt) {
  EXPECT_EQ(srcset_urls("a,b.png 1x, c.png,, d.png"), (views{"a,b.png", "c.png", "d.png"}));
  EXPECT_EQ(srcset_urls("data:image/png;base64,AAA= 2x"), views{"data:image/png;base64,AAA="});
  // A URL is read up to whitespace: commas inside it separate nothing.
  EXPECT_EQ(srcset_urls("a.png,b.png"), views{"a.png,b.png"});
}

TEST(SrcsetUrls, NothingButSeparatorsIsNoCandidate) {
  EXPECT_EQ(srcset_urls(""), views{});
  EXPECT_EQ(srcset_urls(" , ,"), views{});
  EXPECT_EQ(srcset_urls(",,,a.png,,,"), views{"a.png"});
}

TEST(SrcsetUrls, ValidDescriptorsKeepTheCandidate) {
  for (const std::string_view descriptors :
       {"1x", "2x", "1.5x", ".5x", "0x", "1e2x", "1E-2x", "2.5e+1x", "100w", "007w", "10w 10h"}) {
    EXPECT_EQ(srcset_urls("a.png " + std::string(descriptors)), views{"a.png"}) << descriptors;
  }
}

TEST(SrcsetUrls, InvalidDescriptorsDropTheCandidate) {
  for (const std::string_view descriptors :
       {"0w",     "00w",     "-1w",         "1.5w", "w",   "-1x",   "1.x",
        "x",      "1ex",     "1e+x",        "+1x",  "10h", "1x 2x", "10w 1x",
        "1x 10h", "10w 20w", "10w 10h 10h", "2",    "foo", "(x, y)"}) {
    EXPECT_EQ(srcset_urls("a.png " + std::string(descriptors) + ", b.png"), views{"b.png"})
        << descriptors;
  }
}

TEST(SrcsetUrls, ParenthesesKeepACommaInsideADescriptor) {
  EXPECT_EQ(srcset_urls("a.png (x, y), b.png 2x"), views{"b.png"});
  EXPECT_EQ(srcset_urls("a.png 1x (, b.png 2x"), views{});
}

TEST(SrcsetUrls, TheUrlsAreViewsIntoTheValue) {
  const std::string_view value = "a.png 1x, b.png 2x";
  const views found = srcset_urls(value);
  ASSERT_EQ(found.size(), 2U);
  EXPECT_EQ(found[0].data(), value.data());
  EXPECT_EQ(found[1].data(), value.data() + 10);
}

TEST(RefreshUrl, TheUrlAfterTheDelay) {
  EXPECT_EQ(refresh_url("5; url=page.html"), "page.html");
  EXPECT_EQ(refresh_url("0;URL='x'"), "x");
  EXPECT_EQ(refresh_url("3, url = \"y\" trailing"), "y");
  EXPECT_EQ(refresh_url("1 ; Url=z.html"), "z.html");
  EXPECT_EQ(refresh_url("  .5;url=a"), "a");
  EXPECT_EQ(refresh_url("0;url=a;b"), "a;b");
}

TEST(RefreshUrl, UrlIsOptionalAndQuotesAreSkippedWithoutIt) {
  EXPECT_EQ(refresh_url("2.5 'q.html' x"), "q.html");
  EXPECT_EQ(refresh_url("0; urx.html"), "urx.html");
  EXPECT_EQ(refresh_url("0 http://other.org/"), "http://other.org/");
  EXPECT_EQ(refresh_url("0; url='unterminated"), "unterminated");
}

TEST(RefreshUrl, AnEmptyUrlIsThePageItself) {
  EXPECT_EQ(refresh_url("0; url="), "");
  EXPECT_EQ(refresh_url("0; url=''"), "");
}

TEST(RefreshUrl, NoUrlWithoutAValidDelayOrWithNothingAfterIt) {
  for (const std::string_view content :
       {"", "  ", "5", "5; ", "5 , ", "url=nothing.html", "5x; url=a", "-1; url=a", "; url=a"}) {
    EXPECT_EQ(refresh_url(content), std::nullopt) << content;
  }
}

}  // namespace
}  // namespace corocrawl
