/*
 * corocrawl_gen_docs: prints a document rendered from corocrawl's option table, so that the
 * documents cannot drift from the options the program takes.
 *
 *   corocrawl_gen_docs options|man|bash|zsh|fish [FILE]
 *
 * options: docs/options.md (scripts/options-doc writes it; a unit test fails when the file
 * differs); man: the man page corocrawl.1; bash, zsh, fish: the shell completions. The build
 * generates the man page and the completions with it (app/CMakeLists.txt). Writes to FILE, or
 * to stdout without one; exit status 2 for a usage error, 1 when the output was not written.
 */
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <string>

#include "completions.hpp"
#include "documented_options.hpp"
#include "man_page.hpp"
#include "options_doc.hpp"

namespace {

using renderer = std::function<std::string(std::span<const corocrawl::option_spec* const>)>;

const std::map<std::string, renderer, std::less<>>& renderers() {
  namespace cli = corocrawl::cli;
  static const std::map<std::string, renderer, std::less<>> all{
      {"options", [](auto) { return cli::options_document(); }},
      {"man", cli::man_page},
      {"bash", cli::bash_completion},
      {"zsh", cli::zsh_completion},
      {"fish", cli::fish_completion},
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  const auto found = argc == 2 || argc == 3 ? renderers().find(argv[1]) : renderers().end();
  if (found == renderers().end()) {
    std::cerr << "usage: corocrawl_gen_docs options|man|bash|zsh|fish [FILE]\n";
    return 2;
  }
  const std::string text = found->second(corocrawl::cli::documented_options());
  if (argc == 2) {
    std::cout << text << std::flush;
    return std::cout ? 0 : 1;
  }
  std::ofstream file(argv[2], std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    std::cerr << "corocrawl_gen_docs: cannot write " << argv[2] << "\n";
    return 1;
  }
  return 0;
}
