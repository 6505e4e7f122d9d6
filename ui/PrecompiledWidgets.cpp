// The translation unit that carries segstudio_ui_pch's precompiled <QtWidgets> (ui/CMakeLists.txt):
// every ui room and the editor reuse that one header rather than parse Qt's headers in each unit.
