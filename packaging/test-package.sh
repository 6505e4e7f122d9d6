#!/usr/bin/env bash
# Proves the Debian package on a scratch root: builds it with CPack from a build folder, unpacks it
# with dpkg-deb -x, and checks what a user gets: the Depends name installable packages (all present
# here, as the build needed them) and dpkg accepts it; the programs are stripped and their debug
# information is in the -dbgsym package; segstudio-train trains its demo and segstudio answers
# --version without a display; the desktop entry validates; the MIME type maps *.segstudio; the
# icon is there in every hicolor size. Exit code 0 when all hold; each failure says what.
#   packaging/test-package.sh [BUILD_DIR]
set -euo pipefail
build="$(cd "${1:-build}" && pwd)"
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
ok() { echo "test-package: ok: $*"; }

cd "$build"
rm -f segstudio_*.deb segstudio-dbgsym_*.ddeb
cpack -G DEB > cpack.log 2>&1 || { tail -20 cpack.log >&2; fail "cpack -G DEB (see $build/cpack.log)"; }
deb=$(ls segstudio_*_amd64.deb 2>/dev/null | head -1 || true)
[ -n "$deb" ] || fail "no segstudio_<version>_amd64.deb in $build"
version=$(grep -m1 'SEGSTUDIO_VERSION' generated/Version.h | sed 's/.*"\(.*\)".*/\1/')
[ "$deb" = "segstudio_${version}_amd64.deb" ] || fail "$deb is not named after the version $version"
ok "$deb ($(du -h "$deb" | cut -f1))"

depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "$deb has no Depends"
for package in $(echo "$depends" | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g'); do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    fail "Depends names $package, which is not installed here"
done
echo "$depends" | grep -q libtorch || fail "Depends lacks LibTorch: $depends"
echo "$depends" | grep -q libqt6widgets || fail "Depends lacks Qt Widgets: $depends"
dpkg --dry-run -i "$deb" > /dev/null 2>&1 || fail "dpkg --dry-run -i $deb refuses it"
ok "Depends: $depends"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
for program in segstudio segstudio-train; do
  binary="$root/usr/bin/$program"
  [ -x "$binary" ] || fail "$program is not in /usr/bin"
  ! readelf -S "$binary" | grep -q '\.debug_info' || fail "$program still carries debug information"
  ok "$program stripped ($(du -h "$binary" | cut -f1))"
done
dbgsym=$(ls segstudio-dbgsym_*.ddeb 2>/dev/null | head -1 || true)
[ -n "$dbgsym" ] || fail "no segstudio-dbgsym_<version>_amd64.ddeb"
debugFiles=$(dpkg-deb -c "$dbgsym" | grep -c '/usr/lib/debug/.build-id/.*\.debug$' || true)
[ "$debugFiles" -ge 2 ] || fail "$dbgsym holds $debugFiles debug files, not one per program"
ok "$dbgsym"

"$root/usr/bin/segstudio-train" --version | grep -q "$version" || fail "segstudio-train --version"
env -u DISPLAY -u WAYLAND_DISPLAY "$root/usr/bin/segstudio" --version | grep -q "$version" || fail "segstudio --version"
"$root/usr/bin/segstudio-train" demo --dir "$root/demo" --images 12 --epochs 2 --height 64 --width 96 \
  > "$root/demo.log" 2>&1 || { tail "$root/demo.log" >&2; fail "segstudio-train demo"; }
grep -q "demo finished" "$root/demo.log" || fail "the demo did not finish"
ok "both programs answer --version $version; the demo trains"

desktop-file-validate "$root/usr/share/applications/segstudio.desktop" || fail "desktop entry"
grep -q '^Icon=segstudio$' "$root/usr/share/applications/segstudio.desktop" || fail "desktop entry's icon"
mime="$root/mime"
mkdir -p "$mime/packages"
cp "$root/usr/share/mime/packages/segstudio.xml" "$mime/packages/"
# (It notes that the scratch folder is not on XDG_DATA_DIRS; only its warnings and errors count.)
mimeLog=$(update-mime-database "$mime" 2>&1 || true)
! echo "$mimeLog" | grep -Eqi 'warning|error' || fail "MIME XML: $mimeLog"
grep -q 'application/x-segstudio-project:\*\.segstudio' "$mime/globs2" || fail "*.segstudio is not mapped"
ok "desktop entry valid, *.segstudio is application/x-segstudio-project"

[ -f "$root/usr/share/icons/hicolor/scalable/apps/segstudio.svg" ] || fail "SVG icon"
for size in 16 24 32 48 64 128 256; do
  [ -f "$root/usr/share/icons/hicolor/${size}x${size}/apps/segstudio.png" ] || fail "${size}x${size} icon"
done
[ -f "$root/usr/share/segstudio/presets/camvid.json" ] || fail "class presets"
ok "icons (SVG + 7 PNG sizes) and class presets"
echo "test-package: all checks passed"
