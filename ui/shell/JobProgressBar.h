#pragma once

#include <QWidget>

#include <cstddef>

class QLabel;
class QProgressBar;
class QPushButton;

namespace segstudio::document {
class ProjectDocument;
}

namespace segstudio::ui::shell {

// The status-bar strip of a running project job (a class merge or delete relabelling the
// dataset, or its undo): what it does, how far it is, and Cancel where the job can stop. Hidden
// while no job runs; the window keeps painting and answering meanwhile.
class JobProgressBar : public QWidget {
    Q_OBJECT

public:
    explicit JobProgressBar(QWidget* parent = nullptr);
    void setDocument(document::ProjectDocument* document);  // nullptr: hide

private:
    void showProgress(const QString& label, std::size_t done, std::size_t total);

    document::ProjectDocument* m_document = nullptr;
    QLabel* m_label;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
};

}  // namespace segstudio::ui::shell
