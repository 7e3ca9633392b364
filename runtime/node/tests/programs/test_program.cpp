// The program the node tests put in their images (linked statically, so an image needs nothing
// else). Its arguments are steps run in order:
//   print:TEXT      a line on stdout          err:TEXT   a line on stderr
//   env:NAME        prints NAME=<value>       pwd        prints the working directory
//   id              prints uid=<n> gid=<n>    pid        prints pid=<n>
//   hostname        prints gethostname() and $HOSTNAME
//   exe             prints what /proc/self/exe is (the loader, when run through one)
//   sleep:MS        sleeps                    exit:N     exits with N
//   write:PATH      creates PATH (prints write-ok or write-failed)
//   term:N          on SIGTERM: prints "terminating" and exits with N
//   wait            sleeps until a signal ends it
//   serve:PORT      answers HTTP on every address's PORT from a thread: 200 for /healthz, 200 with
//                   $HOSTNAME for /hostname, 500 otherwise
//   api:PATH        GET PATH from $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT (plain TCP):
//                   prints "api: " and the reply's first line, or "api: connect failed"
//   cat:PATH        prints the file's content and a newline (cat-failed when unreadable)
//   mode:PATH       prints the file's permission bits in octal (missing when absent)
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace {

int term_code = 0;

void on_term(int) {
  const char message[] = "terminating\n";
  (void)!write(1, message, sizeof message - 1);
  _exit(term_code);
}

void serve(int port) {
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  const int on = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<unsigned short>(port));
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  if (bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(listener, 16) != 0) {
    std::fprintf(stderr, "cannot listen on %d\n", port);
    return;
  }
  std::printf("serving %d\n", port);
  std::thread([listener] {
    for (;;) {
      const int fd = accept(listener, nullptr, nullptr);
      if (fd < 0) continue;
      char buffer[2048];
      const ssize_t n = read(fd, buffer, sizeof buffer - 1);
      buffer[n > 0 ? n : 0] = '\0';
      const char* name = std::getenv("HOSTNAME");
      const std::string body = name ? name : "";
      const std::string reply =
          std::strncmp(buffer, "GET /healthz ", 13) == 0
              ? "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
          : std::strncmp(buffer, "GET /hostname ", 14) == 0
              ? "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
                    body
              : "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      (void)!write(fd, reply.data(), reply.size());
      close(fd);
    }
  }).detach();
}

void api_get(const std::string& path) {
  const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
  const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<unsigned short>(std::atoi(port ? port : "0")));
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (!host || inet_pton(AF_INET, host, &address.sin_addr) != 1 ||
      connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    std::printf("api: connect failed\n");
    close(fd);
    return;
  }
  const std::string request = "GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n";
  (void)!write(fd, request.data(), request.size());
  std::string reply;
  char buffer[1024];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) reply.append(buffer, static_cast<std::size_t>(n));
  close(fd);
  std::printf("api: %s\n", reply.substr(0, reply.find("\r\n")).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  for (int i = 1; i < argc; ++i) {
    const std::string step = argv[i];
    const auto colon = step.find(':');
    const std::string verb = step.substr(0, colon), arg = colon == std::string::npos ? "" : step.substr(colon + 1);
    if (verb == "print") std::printf("%s\n", arg.c_str());
    else if (verb == "err") std::fprintf(stderr, "%s\n", arg.c_str());
    else if (verb == "env") {
      const char* v = std::getenv(arg.c_str());
      std::printf("%s=%s\n", arg.c_str(), v ? v : "<unset>");
    } else if (verb == "pwd") {
      char buffer[4096];
      std::printf("%s\n", getcwd(buffer, sizeof buffer) ? buffer : "?");
    } else if (verb == "id") std::printf("uid=%u gid=%u\n", getuid(), getgid());
    else if (verb == "pid") std::printf("pid=%d\n", getpid());
    else if (verb == "hostname") {
      char buffer[256] = {};
      gethostname(buffer, sizeof buffer - 1);
      const char* env = std::getenv("HOSTNAME");
      std::printf("hostname=%s HOSTNAME=%s\n", buffer, env ? env : "<unset>");
    } else if (verb == "exe") {
      char buffer[4096];
      const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
      buffer[n > 0 ? n : 0] = '\0';
      std::printf("exe=%s\n", buffer);
    } else if (verb == "sleep") std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(arg.c_str())));
    else if (verb == "exit") return std::atoi(arg.c_str());
    else if (verb == "write") {
      const int fd = open(arg.c_str(), O_CREAT | O_WRONLY, 0644);
      std::printf("%s\n", fd >= 0 ? "write-ok" : "write-failed");
      if (fd >= 0) close(fd);
    } else if (verb == "term") {
      term_code = std::atoi(arg.c_str());
      signal(SIGTERM, on_term);
    } else if (verb == "serve") {
      serve(std::atoi(arg.c_str()));
    } else if (verb == "api") {
      api_get(arg);
    } else if (verb == "cat") {
      const int fd = open(arg.c_str(), O_RDONLY);
      if (fd < 0) {
        std::printf("cat-failed\n");
        continue;
      }
      std::string content;
      char buffer[4096];
      for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) content.append(buffer, static_cast<std::size_t>(n));
      close(fd);
      std::printf("%s\n", content.c_str());
    } else if (verb == "mode") {
      struct stat st {};
      if (stat(arg.c_str(), &st) != 0) std::printf("missing\n");
      else std::printf("%o\n", static_cast<unsigned>(st.st_mode & 07777));
    } else if (verb == "wait") {
      for (;;) pause();
    } else {
      std::fprintf(stderr, "unknown step %s\n", step.c_str());
      return 2;
    }
  }
  return 0;
}
