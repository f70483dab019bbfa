#include "support/Concurrent.h"

#include <exception>
#include <system_error>
#include <thread>

namespace fabc {

void runConcurrently(llvm::function_ref<void()> first, llvm::function_ref<void()> second) {
  std::exception_ptr secondFailed;
  std::thread t;
  try {
    t = std::thread([&] {
      try {
        second();
      } catch (...) {
        secondFailed = std::current_exception();
      }
    });
  } catch (const std::system_error &) { // no thread: in turn, below
  }
  std::exception_ptr firstFailed;
  try {
    first();
  } catch (...) {
    firstFailed = std::current_exception();
  }
  if (t.joinable())
    t.join();
  else if (!firstFailed)
    second();
  if (firstFailed)
    std::rethrow_exception(firstFailed);
  if (secondFailed)
    std::rethrow_exception(secondFailed);
}

} // namespace fabc
