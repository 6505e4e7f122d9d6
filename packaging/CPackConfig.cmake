# Debian package of the GUI and the CLI (cpack -G DEB from the build folder).
set(CPACK_PACKAGE_NAME "segstudio")
set(CPACK_PACKAGE_VENDOR "SegStudio")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Label, train and inspect semantic-segmentation models")
set(CPACK_PACKAGE_CONTACT "SegStudio developers <dev@segstudio.invalid>")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
