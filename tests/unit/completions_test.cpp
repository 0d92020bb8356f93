// The shell completions: each names every option of the program, completes choices and file
// names, and is a script its shell reads. bash is always there; zsh and fish are checked when
// installed (scripts/install-deps installs them).

#include "completions.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "documented_options.hpp"
#include "run_command.hpp"
#include "temp_dir.hpp"

namespace corocrawl {
namespace {

using testing::have_program;
using testing::run_command;
using testing::shell_quoted;

std::vector<const option_spec*> specs() {
  return cli::documented_options();
}

/// The words the bash script offers for a word that starts with '-', with a space at each end.
std::string bash_flag_words(const std::string& bash) {
  const std::string start = "if [[ $cur == -* ]]; then\n    mapfile -t COMPREPLY < <(compgen -W '";
  const auto at = bash.find(start);
  if (at == std::string::npos) return "";
  const auto begin = at + start.size();
  return " " + bash.substr(begin, bash.find('\'', begin) - begin) + " ";
}

/// Whether the zsh script has an _arguments spec for `name`: after the quote that starts it,
/// an exclusion list or a '*', and before its explanation.
bool zsh_has(const std::string& zsh, std::string_view name) {
  for (const char* before : {"'", ")", "'*"})
    for (const char* after : {"[", "=[", "+["})
      if (zsh.find(before + std::string(name) + after) != std::string::npos) return true;
  return false;
}
std::string fish_name(std::string_view name) {
  if (name.starts_with("--")) return "-l '" + std::string(name.substr(2)) + "'";
  return "-s '" + std::string(name.substr(1)) + "'";
}

TEST(Completions, FlagNamesArePlainWords) {
  for (const option_spec* spec : specs())
    for (const std::string_view name : cli::flag_names(*spec))
      EXPECT_EQ(name.find_first_not_of("-abcdefghijklmnopqrstuvwxyz0123456789"),
                std::string_view::npos)
          << name;
}

/// The names in the bash script's case arms: the options whose value it completes (or
/// declines to).
std::set<std::string> bash_value_options(const std::string& bash) {
  std::set<std::string> names;
  std::istringstream lines(bash);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("    -") || !line.ends_with(')')) continue;
    std::istringstream words(line.substr(4, line.size() - 5));
    for (std::string word; words >> word;)
      if (word != "|") names.insert(word);
  }
  return names;
}

TEST(Completions, BashKnowsEveryOptionThatTakesAValue) {
  const std::set<std::string> names = bash_value_options(cli::bash_completion(specs()));
  std::set<std::string> expected;
  for (const option_spec* spec : specs())
    if (cli::takes_value(*spec))
      for (const std::string_view name : cli::flag_names(*spec))
        expected.insert(std::string(name));
  EXPECT_EQ(names, expected);
}

TEST(Completions, EveryScriptNamesEveryFlag) {
  const std::string bash_words = bash_flag_words(cli::bash_completion(specs()));
  const std::string zsh = cli::zsh_completion(specs());
  const std::string fish = cli::fish_completion(specs());
  int names = 0;
  for (const option_spec* spec : specs()) {
    for (const std::string_view name : cli::flag_names(*spec)) {
      ++names;
      EXPECT_NE(bash_words.find(" " + std::string(name) + " "), std::string::npos) << name;
      EXPECT_TRUE(zsh_has(zsh, name)) << name;
      EXPECT_NE(fish.find(fish_name(name)), std::string::npos) << name;
    }
  }
  EXPECT_GT(names, 35);
}

TEST(Completions, ChoicesAndFileNamesAreCompleted) {
  const std::string bash = cli::bash_completion(specs());
  const std::string zsh = cli::zsh_completion(specs());
  const std::string fish = cli::fish_completion(specs());
  for (const option_spec* spec : specs()) {
    if (spec->kind == option_kind::choice && cli::takes_value(*spec)) {
      std::string words;
      for (const std::string_view choice : spec->choices)
        words += (words.empty() ? "" : " ") + std::string(choice);
      EXPECT_NE(bash.find("compgen -W '" + words + "'"), std::string::npos) << spec->flag;
      EXPECT_NE(zsh.find(":(" + words + ")'"), std::string::npos) << spec->flag;
      EXPECT_NE(fish.find("-x -a '" + words + "'"), std::string::npos) << spec->flag;
    }
    if (cli::takes_file_name(*spec)) {
      for (const std::string_view name : cli::flag_names(*spec)) {
        EXPECT_NE(fish.find(fish_name(name) + " -r -F"), std::string::npos) << name;
      }
    }
  }
  EXPECT_TRUE(cli::takes_file_name(*specs().front())) << "--config names a file";
}

/// Writes `script` into `dir` and has `shell` check its syntax without running it.
void expect_syntax_ok(const std::string& shell, const std::string& script) {
  const testing::temp_dir dir;
  const auto file = dir.write("completion", script);
  const auto result = run_command(shell + " -n " + shell_quoted(file.string()));
  EXPECT_EQ(result.status, 0) << result.output;
  EXPECT_EQ(result.output, "");
}

TEST(Completions, BashReadsItsScript) {
  expect_syntax_ok("bash", cli::bash_completion(specs()));
}

TEST(Completions, ZshReadsItsScript) {
  if (!have_program("zsh")) GTEST_SKIP() << "zsh is not installed";
  expect_syntax_ok("zsh", cli::zsh_completion(specs()));
}

TEST(Completions, FishReadsItsScript) {
  if (!have_program("fish")) GTEST_SKIP() << "fish is not installed";
  expect_syntax_ok("fish", cli::fish_completion(specs()));
}

/// What the bash function offers for the words of a command line, the last being completed;
/// one per line.
std::string bash_offers(const testing::temp_dir& dir, const std::string& words) {
  const auto file = dir.write("corocrawl.bash", cli::bash_completion(specs()));
  const std::string script = "cd " + shell_quoted(dir.path().string()) + " && source " +
                             shell_quoted(file.string()) + " && COMP_WORDS=(corocrawl " + words +
                             ") && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _corocrawl && " +
                             "printf '%s\\n' \"${COMPREPLY[@]}\"";
  const auto result = run_command("bash -c " + shell_quoted(script));
  EXPECT_EQ(result.status, 0) << result.output;
  return result.output;
}

TEST(Completions, BashOffersFlagsChoicesFilesAndDirectories) {
  const testing::temp_dir dir;
  dir.write("site/index.html", "");
  dir.write("settings.toml", "");
  EXPECT_EQ(bash_offers(dir, "--max-ti"), "--max-time\n");
  EXPECT_EQ(bash_offers(dir, "--report ''"), "text\nnone\nfull\n");
  EXPECT_EQ(bash_offers(dir, "--report n"), "none\n");
  EXPECT_EQ(bash_offers(dir, "--config se"), "settings.toml\n");
  EXPECT_EQ(bash_offers(dir, "--max-tasks ''"), "\n");  // nothing to offer
  EXPECT_EQ(bash_offers(dir, "-v s"), "site\n");        // a ROOT: directories only
}

TEST(Completions, FishOffersFlagsAndChoices) {
  if (!have_program("fish")) GTEST_SKIP() << "fish is not installed";
  const testing::temp_dir dir;
  const auto file = dir.write("corocrawl.fish", cli::fish_completion(specs()));
  const auto offers = [&](const std::string& line) {
    const std::string script = "source " + shell_quoted(file.string()) + "; complete -C " +
                               shell_quoted("corocrawl " + line);
    const auto result = run_command("fish --no-config -c " + shell_quoted(script));
    EXPECT_EQ(result.status, 0) << result.output;
    return result.output;
  };
  const std::string said =
      "Text report: what needs fixing, that and a line per URL (full), or none";
  EXPECT_EQ(offers("--rep"), "--report\t" + said + "\n");
  EXPECT_EQ(offers("--report "), "full\t" + said + "\nnone\t" + said + "\ntext\t" + said + "\n");
  EXPECT_EQ(offers("--output j"), "json\t" +
                                      std::string("Write a report: text, json, junit, "
                                                  "markdown, github or sarif, to FILE or - "
                                                  "(stdout); repeatable, one on stdout at "
                                                  "most\n") +
                                      "junit\tWrite a report: text, json, junit, markdown, "
                                      "github or sarif, to FILE or - (stdout); repeatable, one "
                                      "on stdout at most\n");
  EXPECT_NE(offers("-").find("-q\tLog only errors, report only broken URLs\n"), std::string::npos);
}

// An option added to the table is completed with no change to the renderers.
TEST(Completions, NewOptionsAppear) {
  constexpr std::array<std::string_view, 2> modes{"fast", "slow"};
  const option_spec added{.flag = "-f,--frobnicate",
                          .key = "frobnicate",
                          .kind = option_kind::choice,
                          .group = "Crawl",
                          .value_name = "MODE",
                          .help = "Frobnicate the pages\n(default: fast)",
                          .choices = modes};
  const option_spec file{.flag = "--frob-file",
                         .kind = option_kind::input_file,
                         .group = "Crawl",
                         .value_name = "FILE",
                         .help = "Frobnication's own file. More"};
  std::vector<const option_spec*> all = specs();
  all.push_back(&added);
  all.push_back(&file);
  const std::string bash = cli::bash_completion(all);
  EXPECT_NE(bash.find("    -f | --frobnicate)\n      mapfile -t COMPREPLY < <(compgen -W 'fast "
                      "slow' -- \"$cur\")\n"),
            std::string::npos)
      << bash;
  EXPECT_NE(bash.find(" | --frob-file)\n      compopt -o filenames"), std::string::npos) << bash;
  const std::string zsh = cli::zsh_completion(all);
  EXPECT_NE(zsh.find("'(-f --frobnicate)-f+[Frobnicate the pages]:MODE:(fast slow)'"),
            std::string::npos)
      << zsh;
  EXPECT_NE(zsh.find("'--frob-file=[Frobnication'\\''s own file]:FILE:_files'"), std::string::npos)
      << zsh;
  const std::string fish = cli::fish_completion(all);
  EXPECT_NE(fish.find("complete -c corocrawl -s 'f' -l 'frobnicate' -x -a 'fast slow' -d "
                      "'Frobnicate the pages'\n"),
            std::string::npos)
      << fish;
  EXPECT_NE(fish.find("complete -c corocrawl -l 'frob-file' -r -F -d 'Frobnication\\'s own "
                      "file'\n"),
            std::string::npos)
      << fish;
}

}  // namespace
}  // namespace corocrawl
