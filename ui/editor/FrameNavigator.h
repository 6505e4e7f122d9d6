#pragma once

#include "data/project/FrameSequence.h"

#include <QObject>

#include <cstddef>
#include <optional>
#include <vector>

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::editor {

// Which image is the frame before or after another in its video sequence, told from the file
// names (data::FrameSequence: `seq_00007.png` follows `seq_00006.png`), for the editor's
// Previous / Next Frame and for the frame a propagation takes its labels from. The sequences are
// built from the project's image list when first asked, and again after images were added or
// removed (or an undo put them back).
// Requirements: GUI thread; the document outlives its use here (setDocument(nullptr) first).
// Guarantees: answers always match the project's current image list; an index outside it has no
//   neighbour and is in no sequence.
class FrameNavigator : public QObject {
    Q_OBJECT

public:
    enum class Direction { Previous, Next };

    explicit FrameNavigator(QObject* parent = nullptr);

    void setDocument(document::ProjectDocument* document);

    // Whether image `index` is a frame of a sequence with at least one other frame.
    bool inSequence(std::size_t index) const;
    // The frame next to image `index` that way; nullopt at either end of its sequence, or alone.
    std::optional<std::size_t> neighbour(std::size_t index, Direction direction) const;
    // The frames that way whose status says they have labels (anything but Unlabelled), nearest
    // first: where a propagation looks for its source. Whether their label map exists on disk is
    // for the reader to find out (off the GUI thread).
    std::vector<std::size_t> labelledFrames(std::size_t index, Direction direction) const;

private:
    const data::FrameSequence& sequence() const;  // rebuilt first when the image list changed
    bool known(std::size_t index) const;

    document::ProjectDocument* m_document = nullptr;
    mutable data::FrameSequence m_sequence;
    mutable bool m_stale = true;
};

}  // namespace segstudio::ui::editor
