# What `cmake --install` and CPack put on a machine: the two programs, the class presets, the
# desktop entry with its icon (SVG, and PNGs rendered from it at the hicolor sizes) and the MIME
# type of *.segstudio projects.
set(SEGSTUDIO_INSTALL_TARGETS)
if(TARGET segstudio-train)
  list(APPEND SEGSTUDIO_INSTALL_TARGETS segstudio-train)
endif()
if(TARGET segstudio)
  list(APPEND SEGSTUDIO_INSTALL_TARGETS segstudio)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/segstudio.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/segstudio-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
          RENAME segstudio.xml)
  set(_icon ${SEGSTUDIO_RESOURCE_DIR}/icons/segstudio.svg)
  install(FILES ${_icon} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  find_program(RSVG_CONVERT rsvg-convert)
  if(RSVG_CONVERT)
    set(_pngs)
    foreach(size 16 24 32 48 64 128 256)
      set(_png ${CMAKE_BINARY_DIR}/icons/${size}x${size}/segstudio.png)
      add_custom_command(OUTPUT ${_png}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/icons/${size}x${size}
        COMMAND ${RSVG_CONVERT} -w ${size} -h ${size} ${_icon} -o ${_png}
        DEPENDS ${_icon} VERBATIM)
      list(APPEND _pngs ${_png})
      install(FILES ${_png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
    endforeach()
    add_custom_target(segstudio_icons ALL DEPENDS ${_pngs})
  else()
    message(WARNING "rsvg-convert not found (librsvg2-bin): the package gets the SVG icon only")
  endif()
endif()
install(TARGETS ${SEGSTUDIO_INSTALL_TARGETS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${SEGSTUDIO_RESOURCE_DIR}/presets DESTINATION ${CMAKE_INSTALL_DATADIR}/segstudio)
