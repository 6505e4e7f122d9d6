# Debian package of the GUI and the CLI: `cpack -G DEB` in the build folder gives
# segstudio_<version>_amd64.deb (version from project(VERSION)), with its Depends computed by
# dpkg-shlibdeps from the binaries, and segstudio-dbgsym_<version>_amd64.ddeb with the debug
# information the stripped programs no longer carry. packaging/test-package.sh checks both.
set(CPACK_PACKAGE_NAME "segstudio")
set(CPACK_PACKAGE_VENDOR "SegStudio")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Label, train and inspect semantic-segmentation models")
set(CPACK_PACKAGE_DESCRIPTION
    "SegStudio closes the loop of semantic segmentation in one desktop application: a pixel-labeling\n"
    "editor, a dataset browser, a LibTorch training engine run as its own process (segstudio-train,\n"
    "also usable headless and data-parallel), live training plots and prediction overlays.")
set(CPACK_PACKAGE_CONTACT "SegStudio developers <dev@segstudio.invalid>")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "graphics")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Runtime pieces the binaries do not link but use: the Qt platform plugins for a display, and Qt
# Svg's icon engine, which draws the tool bars' icons (SVG, embedded; without it they are empty).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "shared-mime-info, desktop-file-utils")
# Strips the programs and moves their debug information into the -dbgsym package (CMake's note:
# not together with CPACK_STRIP_FILES, which would strip it before the split).
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
include(CPack)
