#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace segstudio::ui::common {
class TrainerProcess;
}

namespace segstudio::ui::predictions {

// A trained model as an ONNX file, for OpenCV, ONNX Runtime or TensorRT: `segstudio-train
// export-model`, which writes the file and checks it with OpenCV before keeping it (the GUI never
// links the engine), with the project's class colours in the file's metadata.
// Requirements: GUI thread; one export at a time (start() refuses while one runs).
// Guarantees: never blocks; finished() comes once per start() that returned true: on success with
// the trainer's summary line, on failure with its error line; details holds all it wrote to its
// error stream (warnings such as classes without a colour, or the error).
class ModelExporter : public QObject {
    Q_OBJECT

public:
    explicit ModelExporter(QObject* parent = nullptr);

    // export-model's command line: -c checkpoint -o file [-P project]. It belongs with the other
    // subcommands' builders in TrainerArguments and should move there.
    static QStringList arguments(const QString& checkpoint, const QString& onnxFile, const QString& projectFile);
    // Empty, or why exporting the run now gives an interim model: its metrics say it still trains
    // (the export takes its best checkpoint so far, and the run may yet write a better one).
    static QString stillTrainingWarning(const QString& runDir);

    void setTrainer(const QString& program);
    QString trainer() const;
    bool start(const QString& checkpoint, const QString& onnxFile, const QString& projectFile);
    bool isRunning() const;
    QString commandLine() const;  // "segstudio-train export-model -c …", for the log

signals:
    void finished(bool ok, const QString& message, const QString& details);

private:
    common::TrainerProcess* m_process;
    QString m_file;
};

}  // namespace segstudio::ui::predictions
