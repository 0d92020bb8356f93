// corocrawl(1) in roff, with only the requests of man(7) that every formatter knows: .TH, .SH,
// .SS, .TP, .PP, .RS/.RE and .nf/.fi. Generated into the build directory by
// corocrawl_gen_docs, never written by hand.

#include "man_page.hpp"

#include <cctype>

#include "corocrawl/version.hpp"
#include "documented_options.hpp"
#include "help.hpp"

namespace corocrawl::cli {
namespace {

/// One character of a text line, escaped.
std::string escaped(char c) {
  if (c == '\\') return "\\e";
  if (c == '-') return "\\-";
  return std::string(1, c);
}

/// A text line: one that would start with a control character starts with \& instead.
std::string line(std::string text) {
  if (text.starts_with('.') || text.starts_with('\'')) text.insert(0, "\\&");
  return text + "\n";
}

std::string bold(std::string_view text) {
  return "\\fB" + roff_text(text) + "\\fR";
}

std::string italic(std::string_view text) {
  return "\\fI" + roff_text(text) + "\\fR";
}

/// The document a link of the table's Markdown points into, as the documentation directory
/// holds it: "usage.md#exclude-patterns" (a link from docs/options.md) is docs/usage.md.
std::string document_of(std::string_view target) {
  const std::string_view file = target.substr(0, target.find('#'));
  if (file.find(':') != std::string_view::npos || file.find('/') != std::string_view::npos)
    return std::string(file);
  return "docs/" + std::string(file);
}

/// `text` (roff already) as a sentence: a capital first letter and a full stop at the end.
std::string sentence(std::string text) {
  if (!text.empty() && std::islower(static_cast<unsigned char>(text.front())))
    text.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(text.front())));
  if (!text.ends_with('.')) text += '.';
  return text;
}

/// `text`'s lines joined into one, for filling: --help breaks its prose by hand.
std::string joined(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c == '\n') c = ' ';
  return out;
}

/// "Politeness (per host:port)"; "Proxy" for "Proxy (see below)", which points into --help.
std::string_view group_title(std::string_view group) {
  const auto see_below = group.find(" (see below)");
  return see_below == std::string_view::npos ? group : group.substr(0, see_below);
}

/// The .TP tag of a command-line option: "-v, --verbose", "--max-tasks N", "ROOT ...".
std::string option_tag(const option_spec& spec) {
  if (!spec.flag.starts_with('-')) return italic(spec.flag) + " " + roff_text(spec.value_name);
  std::string tag;
  for (const std::string_view name : flag_names(spec)) {
    if (!tag.empty()) tag += ", ";
    tag += bold(name);
  }
  if (!spec.value_name.empty()) tag += " " + italic(spec.value_name);
  return tag;
}

/// An option's paragraph: what it does, that it repeats, its default and its key.
std::string option_body(const option_spec& spec) {
  std::string body = line(sentence(roff_from_markdown(spec.meaning)));
  if (repeatable(spec.kind) && spec.flag.starts_with('-')) body += line("Repeatable.");
  if (!spec.default_text.empty()) {
    std::string default_text = roff_from_markdown(spec.default_text);
    body += line("Default: " + default_text + (default_text.ends_with('.') ? "" : "."));
  }
  if (!spec.key.empty() && !spec.flag.empty())
    body += line("Config file: " + roff_from_markdown(config_key_markdown(spec)) + ".");
  return body;
}

std::string options_section(std::span<const option_spec* const> specs) {
  std::string out = ".SH OPTIONS\n";
  std::string_view group;
  for (const option_spec* spec : specs) {
    if (spec->flag.empty()) continue;  // the config file's own: see CONFIGURATION
    if (spec->group != group) {
      group = spec->group;
      // A quoted macro argument: a '"' in it is written \(dq.
      std::string title = roff_text(group_title(group));
      for (auto at = title.find('"'); at != std::string::npos; at = title.find('"', at))
        title.replace(at, 1, "\\(dq");
      out += ".SS \"" + title + "\"\n";
    }
    out += ".TP\n" + line(option_tag(*spec)) + option_body(*spec);
  }
  return out;
}

std::string configuration_section(std::span<const option_spec* const> specs) {
  std::string out = ".SH CONFIGURATION\n";
  out += line(roff_text(config_file_text(specs)));
  out += ".PP\n" + line("Keys the config file has and the command line does not:");
  for (const option_spec* spec : specs) {
    if (!spec->flag.empty() || spec->key.empty()) continue;
    out += ".TP\n" + line(roff_from_markdown(config_key_markdown(*spec)));
    out += option_body(*spec);
  }
  out += ".PP\n" + line(
                       "An example config file with every key, commented, is installed as "
                       "examples/corocrawl.toml in corocrawl's documentation directory.");
  return out;
}

constexpr std::string_view description_end =
    "The exit status is the verdict, for CI to act on (see EXIT STATUS); the log goes to "
    "stderr.";

std::string description_section() {
  std::string out = ".SH DESCRIPTION\n";
  std::string_view rest = help_description;
  // Paragraphs are separated by a blank line in --help.
  while (!rest.empty()) {
    const auto blank = rest.find("\n\n");
    const std::string_view paragraph = rest.substr(0, blank);
    rest = blank == std::string_view::npos ? std::string_view() : rest.substr(blank + 2);
    std::string text = joined(paragraph);
    while (text.ends_with(' '))
      text.pop_back();
    if (!text.empty()) out += line(roff_text(text)) + ".PP\n";
  }
  return out + line(roff_text(description_end));
}

/// Every variable the program reads, directly or through its libraries.
constexpr std::string_view environment_section = R"(.SH ENVIRONMENT
.TP
\fBhttp_proxy\fR, \fBHTTP_PROXY\fR
The proxy for http:// URLs, unless \fB\-\-proxy\fR or the \fBproxy\fR key is given. The
lower\-case name wins; an empty value counts as unset.
.TP
\fBhttps_proxy\fR, \fBHTTPS_PROXY\fR
The proxy for https:// URLs (through CONNECT), as \fBhttp_proxy\fR.
.TP
\fBno_proxy\fR, \fBNO_PROXY\fR
Hosts reached directly, unless \fB\-\-no\-proxy\fR or the \fBno_proxy\fR key is given:
comma\-separated names (with their subdomains), IP addresses, IPv4 CIDR blocks, or *.
Loopback hosts (localhost, 127.0.0.0/8, ::1) never use a proxy.
.TP
\fBHOME\fR
A ROOT written as ~ or ~/DIR, on the command line or in the config file, is a directory in it.
.TP
\fBSSL_CERT_FILE\fR, \fBSSL_CERT_DIR\fR
Read by OpenSSL: where the system's CA certificates are, if not in its default place.
.TP
\fBNO_COLOR\fR
When set and not empty, the text report is not coloured on a terminal
(\fB\-\-color always\fR still colours it).
.TP
\fBTERM\fR, \fBCOLORTERM\fR
Whether the log on stderr is coloured, when stderr is a terminal.
.TP
\fBTMPDIR\fR
Where a large crawl keeps what it reads only at its end, in temporary files without a name
(\fI/tmp\fR when unset or empty); where none can be written there, it keeps them in memory,
with a warning.
)";

constexpr std::string_view files_section = R"(.SH FILES
.TP
\fI./corocrawl.toml\fR
The config file read when \fB\-\-config\fR is not given, if it exists.
)";

std::string exit_status_section() {
  std::string out = ".SH EXIT STATUS\n";
  for (const exit_status_doc& status : exit_statuses()) {
    out += ".TP\n" + line(bold(std::to_string(status.code)));
    out += line(sentence(roff_text(joined(status.meaning))));
  }
  return out;
}

/// Command lines and what they do.
constexpr std::string_view examples[][2] = {
    {"corocrawl https://example.com/", "Check a site."},
    {"corocrawl public/", "Check a folder of built HTML, served on 127.0.0.1 while it is checked."},
    {"corocrawl --max-tasks 20 --rate-limit 5 https://example.com/", "Go easier on a live server."},
    {"corocrawl --json summary.json --report none -q public/",
     "In CI: the exit status is the verdict, the JSON summary an artifact."},
    {"corocrawl --config ci.toml --exclude '/api/' public/",
     "Settings from a config file, one more exclude pattern on the command line."},
};

std::string examples_section() {
  std::string out = ".SH EXAMPLES\n";
  for (const auto& [command, what] : examples)
    out += line(roff_text(what)) + ".PP\n.RS\n.nf\n" + line(roff_text(command)) + ".fi\n.RE\n.PP\n";
  out.resize(out.size() - 4);  // the last ".PP\n"
  return out;
}

constexpr std::string_view see_also_section = R"(.SH SEE ALSO
README.md, docs/usage.md (what is checked and how, the report, the JSON summary's schema) and
docs/options.md in corocrawl's documentation directory: share/doc/corocrawl under the
installation prefix, /usr/share/doc/corocrawl from the Debian package.
)";

}  // namespace

std::string roff_text(std::string_view text) {
  std::string out;
  for (const char c : text)
    out += escaped(c);
  return out;
}

std::string roff_from_markdown(std::string_view markdown) {
  std::string out;
  bool code = false;
  for (std::size_t i = 0; i < markdown.size(); ++i) {
    const char c = markdown[i];
    if (c == '`') {
      out += code ? "\\fR" : "\\fB";
      code = !code;
      continue;
    }
    if (!code && c == '[') {
      // [text](target): the text, and the document it points into.
      const auto text_end = markdown.find("](", i);
      const auto link_end =
          text_end == std::string_view::npos ? text_end : markdown.find(')', text_end);
      if (link_end != std::string_view::npos &&
          markdown.substr(i + 1, text_end - i - 1).find_first_of("[]`") == std::string_view::npos) {
        out += roff_text(markdown.substr(i + 1, text_end - i - 1));
        const std::string_view target = markdown.substr(text_end + 2, link_end - text_end - 2);
        out += " (" + roff_text(document_of(target)) + ")";
        i = link_end;
        continue;
      }
    }
    out += escaped(c);
  }
  if (code) out += "\\fR";
  return out;
}

std::string man_page(std::span<const option_spec* const> specs) {
  std::string out = ".\\\" Generated from corocrawl's option table: do not edit.\n";
  out += ".TH COROCRAWL 1 \"\" \"corocrawl " + std::string(version) + "\" \"User Commands\"\n";
  // Flags, paths and URLs are not words to hyphenate, nor to stretch to the right margin.
  out += ".nh\n.ad l\n";
  out += ".SH NAME\ncorocrawl \\- crawl a website and check its links\n";
  out += ".SH SYNOPSIS\n.B corocrawl\n[\\fIOPTIONS\\fR] [\\fIROOT\\fR ...]\n";
  out += description_section();
  out += options_section(specs);
  out += configuration_section(specs);
  out += environment_section;
  out += files_section;
  out += exit_status_section();
  out += examples_section();
  out += see_also_section;
  return out;
}

}  // namespace corocrawl::cli
