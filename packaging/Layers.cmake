# Layering as a build error, not a review comment: each core library may link only the layers
# below it. Checked at configure time over the targets' direct link libraries.
function(segstudio_forbid_links target)
  if(NOT TARGET ${target})
    return()
  endif()
  get_target_property(links ${target} LINK_LIBRARIES)
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
# The document layer: Qt Core/Gui, no widget, no engine.
segstudio_forbid_links(segstudio_document "Qt6::Widgets" "QCustomPlot" "torch" "segstudio_engine" "segstudio_editor" "segstudio_ui")
# The widget libraries: the editor never reaches the main window's library, neither one the engine
# (training runs in its own process).
segstudio_forbid_links(segstudio_editor "torch" "segstudio_engine" "segstudio_ui" "QCustomPlot")
segstudio_forbid_links(segstudio_ui "torch" "segstudio_engine")
# The entry points: the headless CLI never pulls a widget or the document layer (it runs on
# machines without a display, and on GPU machines without Qt); the GUI never links the engine.
segstudio_forbid_links(segstudio-train "Qt6::" "segstudio_document" "segstudio_editor" "segstudio_ui")
segstudio_forbid_links(segstudio "torch" "segstudio_engine")
