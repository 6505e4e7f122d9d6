# What `cmake --install` and CPack put on a machine: the two programs, the presets, and the
# desktop entry.
set(SEGSTUDIO_INSTALL_TARGETS)
if(TARGET segstudio-train)
  list(APPEND SEGSTUDIO_INSTALL_TARGETS segstudio-train)
endif()
if(TARGET segstudio)
  list(APPEND SEGSTUDIO_INSTALL_TARGETS segstudio)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/segstudio.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
endif()
install(TARGETS ${SEGSTUDIO_INSTALL_TARGETS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${SEGSTUDIO_RESOURCE_DIR}/presets DESTINATION ${CMAKE_INSTALL_DATADIR}/segstudio)
