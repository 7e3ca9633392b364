// Applies image layers onto a directory as containerd's applier does, safely: an entry whose path
// leaves the root (`..`, absolute, or through a symlink a previous entry made) is refused, hard
// links must point inside the root, device files and FIFOs are skipped, whiteouts (`.wh.name`,
// `.wh..wh..opq`) remove what lower layers put there.
#pragma once
#include <filesystem>
#include <string_view>

namespace rr::node_detail {

// Applies one (uncompressed or gzip) layer; `what` names it in errors (std::runtime_error).
// `chown` sets owners as the tar says (root only).
void apply_layer(std::string_view layer_bytes, const std::filesystem::path& root, std::string_view what, bool chown);

}  // namespace rr::node_detail
