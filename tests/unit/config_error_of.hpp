#pragma once
// Checking config errors: the option tests' one way to expect one.

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

#include "corocrawl/errors.hpp"

namespace corocrawl::testing {

/// Runs `f`, which must throw config_error; checks the message is one line and contains
/// every part. Returns the message.
inline std::string error_of(const std::function<void()>& f,
                            std::initializer_list<std::string_view> parts) {
  try {
    f();
  } catch (const config_error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    for (std::string_view part : parts) {
      EXPECT_NE(message.find(part), std::string::npos) << "\"" << part << "\" not in: " << message;
    }
    return message;
  }
  ADD_FAILURE() << "no config_error thrown";
  return {};
}

}  // namespace corocrawl::testing
