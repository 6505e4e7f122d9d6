#include "AdaptationSentence.h"

#include <QObject>
#include <QRegularExpression>

namespace segstudio::ui::predictions {

QString AdaptationSentence::from(const QString& output)
{
    static const QRegularExpression adapted(QStringLiteral("adapted the batch norms to \\d+ of the images \\(weight [0-9.]+, shift ([0-9.eE+-]+)\\)"));
    static const QRegularExpression asTrained(
        QStringLiteral("the batch norms as trained: the shift of \\d+ of the images, ([0-9.eE+-]+), is at most --adapt-shift ([0-9.eE+-]+)"));
    if (const auto match = adapted.match(output); match.hasMatch())
        return QObject::tr("Predicted with the model adapted to this project's images: they differ from its training "
                           "images (shift %1).")
            .arg(match.captured(1).toDouble(), 0, 'f', 2);
    if (const auto match = asTrained.match(output); match.hasMatch())
        return QObject::tr("Predicted as trained: this project's images are of its training images' kind (shift %1, at most %2).")
            .arg(match.captured(1).toDouble(), 0, 'f', 2)
            .arg(match.captured(2).toDouble(), 0, 'f', 2);
    return {};
}

}  // namespace segstudio::ui::predictions
