// The stdio loop of `fabc lsp`: reads framed messages from the client, wakes on the
// worker's pipe when results wait, and writes the server's messages. Split from
// Server.cpp, which keeps the documents and the compiles.
#include "tools/lsp/Protocol.h"
#include "tools/lsp/Server.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace fabc::lsp {

int runServer(ServerOptions opts, int in, int out) {
  auto write = [out](const std::string &s) {
    for (size_t done = 0; done < s.size();) {
      ssize_t n = ::write(out, s.data() + done, s.size() - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return; // the client is gone; reading will see the end of input
      done += size_t(n);
    }
  };
  size_t maxBody = size_t(std::min<uint64_t>(opts.compile.maxFileSize * 2 + (1u << 20), 1ull << 31));
  // The worker wakes the reader through a pipe when results wait (a byte each time; the
  // reader drains them all and collects at once). Closed after the server (declared
  // before it), whose destructor stops the worker.
  int wake[2] = {-1, -1};
  struct Closer {
    int *fds;
    ~Closer() {
      for (int i = 0; i < 2; ++i)
        if (fds[i] >= 0)
          ::close(fds[i]);
    }
  } closer{wake};
  if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0)
    wake[0] = wake[1] = -1;
  Server server(std::move(opts), write);
  if (wake[0] >= 0 && !server.startWorker([fd = wake[1]] { [[maybe_unused]] ssize_t n = ::write(fd, "r", 1); })) {
    ::close(wake[0]);
    ::close(wake[1]);
    wake[0] = wake[1] = -1; // no thread: the reader compiles
  }
  MessageReader reader(maxBody);
  std::string body, err;
  char buf[65536];
  for (;;) {
    int wait = server.tick();
    pollfd p[2] = {{in, POLLIN, 0}, {wake[0], POLLIN, 0}};
    int r = ::poll(p, wake[0] >= 0 ? 2 : 1, wait);
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0)
      continue; // a debounce ran out
    if (wake[0] >= 0 && (p[1].revents & POLLIN))
      while (::read(wake[0], buf, sizeof buf) > 0) {
      }
    if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR)))
      continue; // results to collect: tick()
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (n <= 0)
      break; // end of input without exit
    reader.feed(buf, size_t(n));
    for (;;) {
      MessageReader::Result res = reader.next(body, err);
      if (res == MessageReader::NeedMore)
        break;
      if (res == MessageReader::BadFraming)
        server.framingError(err);
      else
        server.handleMessage(body);
      if (server.exited())
        return server.exitCode();
    }
  }
  return 1;
}

} // namespace fabc::lsp
