// The crawl's memory reserve: address space set aside in pieces, given back one piece by each
// allocation that fails while the reserve is armed, which still fails.
#include "sys/memory_reserve.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <new>

namespace corocrawl {
namespace {

// An allocation no machine satisfies: operator new calls the new_handler, then throws.
void allocate_too_much() {
  volatile std::size_t too_much = std::size_t{1} << 62;  // not folded into a constant
  ::operator delete(::operator new(too_much));
}

void fail_quietly() {
  throw std::bad_alloc();
}

TEST(MemoryReserve, IsSetAsideInPieces) {
  memory_reserve reserve{3 * memory_reserve::piece_bytes};
  EXPECT_EQ(reserve.pieces_left(), 3u);
  EXPECT_TRUE(reserve.give_back_piece());
  EXPECT_EQ(reserve.pieces_left(), 2u);
  reserve.release();
  EXPECT_EQ(reserve.pieces_left(), 0u);
  EXPECT_FALSE(reserve.give_back_piece());
}

TEST(MemoryReserve, EachFailedAllocationGivesBackOnePieceAndStillFails) {
  if (COROCRAWL_SANITIZED) GTEST_SKIP() << "a sanitizer reports such an allocation instead";
  memory_reserve reserve{2 * memory_reserve::piece_bytes};
  {
    const reserve_on_allocation_failure armed{reserve};
    EXPECT_THROW(allocate_too_much(), std::bad_alloc);
    EXPECT_EQ(reserve.pieces_left(), 1u);
    EXPECT_THROW(allocate_too_much(), std::bad_alloc);
    EXPECT_EQ(reserve.pieces_left(), 0u);
    EXPECT_THROW(allocate_too_much(), std::bad_alloc);  // nothing left: it fails as before
  }
  EXPECT_EQ(std::get_new_handler(), nullptr);
}

TEST(MemoryReserve, OneReserveIsArmedAtATimeAndTheHandlerBeforeIsKept) {
  if (COROCRAWL_SANITIZED) GTEST_SKIP() << "a sanitizer reports such an allocation instead";
  std::set_new_handler(fail_quietly);
  memory_reserve first{2 * memory_reserve::piece_bytes};
  memory_reserve second{2 * memory_reserve::piece_bytes};
  {
    const reserve_on_allocation_failure armed{first};
    const reserve_on_allocation_failure not_armed{second};
    EXPECT_THROW(allocate_too_much(), std::bad_alloc);  // thrown by fail_quietly
    EXPECT_EQ(first.pieces_left(), 1u);
    EXPECT_EQ(second.pieces_left(), 2u);
  }
  EXPECT_EQ(std::get_new_handler(), fail_quietly);
  std::set_new_handler(nullptr);
  EXPECT_THROW(allocate_too_much(), std::bad_alloc);
  EXPECT_EQ(first.pieces_left(), 1u);  // disarmed
}

}  // namespace
}  // namespace corocrawl
