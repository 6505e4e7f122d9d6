# Layering as a build error, not a review comment: each core library may link only the layers
# below it. Checked at configure time over the targets' direct link libraries.
function(segstudio_forbid_links target)
  if(NOT TARGET ${target})
    return()
  endif()
  # What it links to build itself and what it hands on (an INTERFACE library has only the latter).
  get_target_property(own ${target} LINK_LIBRARIES)
  get_target_property(handed ${target} INTERFACE_LINK_LIBRARIES)
  set(links)
  foreach(list IN ITEMS own handed)
    if(${list})
      list(APPEND links ${${list}})
    endif()
  endforeach()
  foreach(link IN LISTS links)
    foreach(pattern IN LISTS ARGN)
      if(link MATCHES "${pattern}")
        message(FATAL_ERROR "Layering: ${target} must not link ${link} (matches '${pattern}'); see docs/ARCHITECTURE.md")
      endif()
    endforeach()
  endforeach()
endfunction()

segstudio_forbid_links(segstudio_pack "Qt6::" "opencv" "torch" "segstudio_")
segstudio_forbid_links(segstudio_run "Qt6::" "opencv" "torch" "segstudio_")
segstudio_forbid_links(segstudio_metrics "Qt6::" "opencv" "torch" "segstudio_(pack|data|engine|paint|document|editor|ui)")
segstudio_forbid_links(segstudio_data "Qt6::" "torch" "segstudio_engine" "segstudio_paint" "segstudio_document" "segstudio_editor" "segstudio_ui")
segstudio_forbid_links(segstudio_paint "Qt6::" "torch" "segstudio_engine" "segstudio_document" "segstudio_editor" "segstudio_ui")
segstudio_forbid_links(segstudio_engine "Qt6::" "opencv" "segstudio_data" "segstudio_paint" "segstudio_document" "segstudio_editor" "segstudio_ui")
# ONNX export: the engine and ONNX, nothing of the data, paint or widget layers.
segstudio_forbid_links(segstudio_onnx "Qt6::" "opencv" "segstudio_data" "segstudio_paint" "segstudio_document" "segstudio_editor" "segstudio_ui")
# The OpenCV runtime of exported models: OpenCV only, never LibTorch.
segstudio_forbid_links(segstudio_deploy "Qt6::" "torch" "segstudio_")
# Training elsewhere: the run contract below it, nothing else of SegStudio, no Qt, no LibTorch.
segstudio_forbid_links(segstudio_remote "Qt6::" "opencv" "torch" "segstudio_(pack|metrics|data|engine|paint|document|onnx|deploy|editor|ui)")
# The document layer: Qt Core/Gui, no widget, no engine.
segstudio_forbid_links(segstudio_document "Qt6::Widgets" "QCustomPlot" "torch" "segstudio_engine" "segstudio_editor" "segstudio_ui")
# The icon set below every widget library: Qt Gui (and Qt Svg) only, nothing of SegStudio.
segstudio_forbid_links(segstudio_iconset "Qt6::Widgets" "QCustomPlot" "torch" "opencv" "segstudio_")
# The widget libraries: the editor never reaches the main window's library, neither one the engine
# (training runs in its own process).
segstudio_forbid_links(segstudio_editor "torch" "segstudio_engine" "segstudio_ui" "QCustomPlot")

# The widget rooms (ui/<room>, docs/ARCHITECTURE.md): common below everything; project and browser
# above it; training and predictions above those, never each other; the shell on top. No room
# links the engine: training runs in segstudio-train.
segstudio_forbid_links(segstudio_ui_common "torch" "segstudio_engine" "segstudio_editor" "segstudio_ui_" "QCustomPlot")
segstudio_forbid_links(segstudio_ui_project "torch" "segstudio_engine" "segstudio_editor"
  "segstudio_ui_(browser|training|predictions|shell)")
segstudio_forbid_links(segstudio_ui_browser "torch" "segstudio_engine" "segstudio_editor"
  "segstudio_ui_(project|training|predictions|shell)")
segstudio_forbid_links(segstudio_ui_training "torch" "segstudio_engine" "segstudio_editor"
  "segstudio_ui_(project|browser|predictions|shell)")
segstudio_forbid_links(segstudio_ui_predictions "torch" "segstudio_engine" "segstudio_editor"
  "segstudio_ui_(project|browser|training|shell)")
segstudio_forbid_links(segstudio_ui_shell "torch" "segstudio_engine")

# The same rule at the source: a room's files may include only the rooms below it. (Each room
# also exposes only its own folder, so such an include fails to compile as well; this says why,
# at configure time, before anything is built.) folder: the room's files; prefix: the regular
# expression before a forbidden room's name in an include ("../" and the like); place: how the
# message names the rooms ("ui/" or "engine/").
function(segstudio_reject_includes folder prefix place room)
  file(GLOB files "${folder}/*.h" "${folder}/*.cpp")
  foreach(file IN LISTS files)
    file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line IN LISTS includes)
      foreach(other IN LISTS ARGN)
        if(line MATCHES "\"${prefix}${other}/")
          message(FATAL_ERROR "Layering: ${file} includes ${place}${other}/ (${line}); ${place}${room} must not "
                              "reach ${place}${other}; see docs/ARCHITECTURE.md")
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()

function(segstudio_forbid_includes room)
  segstudio_reject_includes("${SEGSTUDIO_UI_DIR}/${room}" "(\\.\\./)*" "ui/" ${room} ${ARGN})
endfunction()

if(NOT SEGSTUDIO_UI_DIR)
  set(SEGSTUDIO_UI_DIR "${CMAKE_SOURCE_DIR}/ui")
endif()
segstudio_forbid_includes(common editor project browser training predictions shell)
segstudio_forbid_includes(project editor browser training predictions shell)
segstudio_forbid_includes(browser editor project training predictions shell)
segstudio_forbid_includes(training editor project browser predictions shell)
segstudio_forbid_includes(predictions editor project browser training shell)
segstudio_forbid_includes(editor common project browser training predictions shell)
segstudio_forbid_includes(icons common editor project browser training predictions shell)
# Core's two big rooms have sub-rooms (docs/ARCHITECTURE.md), one library each but the same rule
# at the source: a sub-room's files include a sibling only by "<room>/<sub-room>/" (the compiler
# finds nothing else), and only the siblings below it.
function(segstudio_forbid_subroom_includes room sub)
  segstudio_reject_includes("${SEGSTUDIO_CORE_DIR}/${room}/${sub}" "((\\.\\./)+|${room}/)" "${room}/" ${sub} ${ARGN})
endfunction()

if(NOT SEGSTUDIO_CORE_DIR)
  set(SEGSTUDIO_CORE_DIR "${CMAKE_SOURCE_DIR}/core")
endif()
# engine: runtime <- models, input, distributed (none of each other) <- inference <- training.
segstudio_forbid_subroom_includes(engine runtime models input distributed inference training)
segstudio_forbid_subroom_includes(engine models input distributed inference training)
segstudio_forbid_subroom_includes(engine input models distributed inference training)
segstudio_forbid_subroom_includes(engine distributed models input inference training)
segstudio_forbid_subroom_includes(engine inference training)
# data: labels <- project <- formats.
segstudio_forbid_subroom_includes(data labels project formats)
segstudio_forbid_subroom_includes(data project formats)

# The entry points: the headless CLI never pulls a widget or the document layer (it runs on
# machines without a display, and on GPU machines without Qt); the GUI never links the engine.
segstudio_forbid_links(segstudio-train "Qt6::" "segstudio_document" "segstudio_editor" "segstudio_ui")
segstudio_forbid_links(segstudio "torch" "segstudio_engine")
