// corocrawl(1): every option, key and exit status of the program is in it, its prose names no
// option the program lacks, and it is roff that groff reads without a warning.

#include "man_page.hpp"

#include <gtest/gtest.h>

#include <array>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "documented_options.hpp"
#include "help.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

std::string page() {
  return cli::man_page(cli::documented_options());
}

TEST(ManPage, NamesEveryFlagKeyAndGroup) {
  const std::string text = page();
  for (const option_spec* spec : cli::documented_options()) {
    for (const std::string_view name : cli::flag_names(*spec)) {
      EXPECT_NE(text.find(cli::roff_text(name)), std::string::npos) << name;
    }
    if (!spec->key.empty()) {
      EXPECT_NE(text.find(cli::roff_text(spec->key)), std::string::npos) << spec->key;
    }
    if (!spec->value_name.empty()) {
      EXPECT_NE(text.find(cli::roff_text(spec->value_name)), std::string::npos) << spec->value_name;
    }
    const std::string_view group = spec->group.substr(0, spec->group.find(" (see below)"));
    EXPECT_NE(text.find(".SS \"" + cli::roff_text(group) + "\""), std::string::npos) << group;
  }
}

TEST(ManPage, HasTheSectionsOfAManPage) {
  const std::string text = page();
  for (const char* section :
       {".TH COROCRAWL 1 ", ".SH NAME\ncorocrawl \\- ", ".SH SYNOPSIS", ".SH DESCRIPTION",
        ".SH OPTIONS", ".SH CONFIGURATION", ".SH ENVIRONMENT", ".SH FILES", ".SH EXIT STATUS",
        ".SH EXAMPLES", ".SH SEE ALSO"}) {
    EXPECT_NE(text.find(section), std::string::npos) << section;
  }
}

TEST(ManPage, ListsEveryExitStatusAndProxyVariable) {
  const std::string text = page();
  for (const cli::exit_status_doc& status : cli::exit_statuses()) {
    EXPECT_NE(text.find(".TP\n\\fB" + std::to_string(status.code) + "\\fR\n"), std::string::npos)
        << status.code;
  }
  for (const char* variable :
       {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"}) {
    EXPECT_NE(text.find(std::string("\\fB") + variable + "\\fR"), std::string::npos) << variable;
  }
}

// The page's own prose (examples, environment) must not name an option that is gone.
TEST(ManPage, EveryFlagItNamesIsAnOption) {
  std::set<std::string> flags;
  for (const option_spec* spec : cli::documented_options())
    for (const std::string_view name : cli::flag_names(*spec))
      flags.insert(std::string(name));
  const std::string text = page();
  const std::regex long_flag(R"(\\-\\-([a-z0-9]+(\\-[a-z0-9]+)*))");
  int found = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), long_flag), end; it != end; ++it) {
    std::string flag = "--" + std::regex_replace((*it)[1].str(), std::regex(R"(\\-)"), "-");
    EXPECT_TRUE(flags.contains(flag)) << flag << " is in the man page but not an option";
    ++found;
  }
  EXPECT_GT(found, 40);
}

// A line that starts with '.' or '\'' is a request: only those the page means to make.
TEST(ManPage, TextNeverStartsALineAsARequest) {
  const std::set<std::string> requests{".TH", ".SH", ".SS", ".TP", ".PP", ".RS",  ".RE",
                                       ".nf", ".fi", ".B",  ".nh", ".ad", ".\\\""};
  std::istringstream lines(page());
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with('.') && !line.starts_with('\'')) continue;
    EXPECT_TRUE(requests.contains(line.substr(0, line.find(' ')))) << line;
  }
}

TEST(ManPage, EscapesRoff) {
  EXPECT_EQ(cli::roff_text("--max-tasks"), "\\-\\-max\\-tasks");
  EXPECT_EQ(cli::roff_text("a\\b"), "a\\eb");
  EXPECT_EQ(cli::roff_from_markdown("`-v` debug"), "\\fB\\-v\\fR debug");
  EXPECT_EQ(cli::roff_from_markdown("see [status rules](usage.md#status-rules)"),
            "see status rules (docs/usage.md)");
  EXPECT_EQ(cli::roff_from_markdown("`[x](y)` and [a]"), "\\fB[x](y)\\fR and [a]");
  EXPECT_EQ(cli::roff_from_markdown("`unclosed"), "\\fBunclosed\\fR");
}

// Text a spec gives that would be a request at the start of a line stays text.
TEST(ManPage, NewOptionsAppearAndTheirTextIsEscaped) {
  constexpr std::array<std::string_view, 2> modes{"fast", "slow"};
  const option_spec added{.flag = "-f,--frobnicate",
                          .key = "frobnicate",
                          .kind = option_kind::choice,
                          .group = "Crawl",
                          .value_name = "MODE",
                          .help = "Frobnicate",
                          .default_text = "`fast`",
                          .meaning = ".frobnicate\\ the pages",
                          .choices = modes};
  const option_spec file_only{.key = "colour",
                              .kind = option_kind::text,
                              .group = "Output",
                              .default_text = "none",
                              .meaning = "'quoted' colour"};
  std::vector<const option_spec*> specs = cli::documented_options();
  specs.push_back(&added);
  specs.push_back(&file_only);
  const std::string text = cli::man_page(specs);
  EXPECT_NE(text.find(".TP\n\\fB\\-f\\fR, \\fB\\-\\-frobnicate\\fR \\fIMODE\\fR\n"
                      "\\&.frobnicate\\e the pages.\nDefault: \\fBfast\\fR.\n"
                      "Config file: \\fBfrobnicate\\fR.\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(".TP\n\\fBcolour\\fR\n\\&'quoted' colour.\nDefault: none.\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\\fBcolour\\fR"), std::string::npos);
}

TEST(ManPage, GroffReadsItWithoutWarnings) {
  if (!testing::have_program("groff")) GTEST_SKIP() << "groff is not installed";
  const testing::temp_dir dir;
  const auto file = dir.write("corocrawl.1", page());
  const auto result =
      testing::run_command("groff -man -ww -z -Tutf8 " + testing::shell_quoted(file.string()));
  EXPECT_EQ(result.status, 0);
  EXPECT_EQ(result.output, "");
}

}  // namespace
}  // namespace corocrawl
