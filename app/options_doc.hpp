#pragma once
// docs/options.md, rendered from the option table.

#include <string>
#include <vector>

#include "settings.hpp"

namespace corocrawl::cli {

/// The whole of docs/options.md: a title, a line on where it comes from and the table.
inline std::string options_document() {
  std::vector<const option_spec*> specs;
  for (const option<settings>& o : option_table())
    specs.push_back(&o.spec);
  return "# Options\n\n"
         "Every option of `corocrawl`, its key in `corocrawl.toml`, its default and what it "
         "does.\n"
         "See [usage.md](usage.md) for how options, the config file and the environment "
         "combine.\n\n"
         "<!-- Generated from the option table by scripts/options-doc: do not edit. -->\n\n" +
         options_markdown(specs) + "| `--help`, `--version` | | | |\n";
}

}  // namespace corocrawl::cli
