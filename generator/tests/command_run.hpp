// One subcommand run in a test: a run_<command>(args, out, err) function with string streams, its
// exit status and what it printed.
#pragma once
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

struct CommandRun {
  int status = 0;
  std::string out, err;
};

template <class Command>
CommandRun run_command(Command command, const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CommandRun r;
  r.status = command(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}
