// The executable the `rrgen image` tests put into images: small, linking one library beyond
// glibc and libstdc++ (zlib), and printing its usage on --help so a test can run it from the
// unpacked image.
#include <zlib.h>

#include <cstring>
#include <iostream>

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--help") == 0) {
    std::cout << "usage: image_hello [--help] (zlib " << zlibVersion() << ")\n";
    return 0;
  }
  std::cerr << "image_hello: run with --help\n";
  return 2;
}
