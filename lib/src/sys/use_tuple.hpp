#pragma once
// Awaiting an Asio operation as the tuple of its results, error first: a failed read, write
// or wait is a value the caller looks at, not an exception (the error policy, docs/design.md).

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace corocrawl {

inline constexpr auto use_tuple = boost::asio::as_tuple(boost::asio::use_awaitable);

}  // namespace corocrawl
