#pragma once
// XML read back with expat, as a test-report reader would, for the tests of the junit format.

#include <expat.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace corocrawl::testing {

struct xml_element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;
  int depth = 0;
};

/// Every element of `xml` in document order; fails the test when it is not well-formed.
inline std::vector<xml_element> parse_xml(const std::string& xml) {
  struct state {
    std::vector<xml_element> elements;
    std::vector<std::size_t> open;
  } s;
  XML_Parser parser = XML_ParserCreate("UTF-8");
  XML_SetUserData(parser, &s);
  XML_SetElementHandler(
      parser,
      [](void* data, const XML_Char* name, const XML_Char** attributes) {
        auto& st = *static_cast<state*>(data);
        xml_element e{name, {}, {}, static_cast<int>(st.open.size())};
        for (int i = 0; attributes[i] != nullptr; i += 2)
          e.attributes[attributes[i]] = attributes[i + 1];
        st.open.push_back(st.elements.size());
        st.elements.push_back(std::move(e));
      },
      [](void* data, const XML_Char*) { static_cast<state*>(data)->open.pop_back(); });
  XML_SetCharacterDataHandler(parser, [](void* data, const XML_Char* text, int length) {
    auto& st = *static_cast<state*>(data);
    if (!st.open.empty()) st.elements[st.open.back()].text.append(text, length);
  });
  const bool ok = XML_Parse(parser, xml.data(), static_cast<int>(xml.size()), 1) == XML_STATUS_OK;
  EXPECT_TRUE(ok) << XML_ErrorString(XML_GetErrorCode(parser)) << "\n" << xml;
  XML_ParserFree(parser);
  return s.elements;
}

}  // namespace corocrawl::testing
