/*
 * corocrawl_options_doc: prints docs/options.md, the table of every option of corocrawl,
 * from the option table itself. scripts/options-doc writes its output to docs/options.md;
 * a unit test fails when the file differs from it.
 */
#include "options_doc.hpp"

#include <iostream>

int main() {
  std::cout << corocrawl::cli::options_document();
  return std::cout ? 0 : 1;
}
