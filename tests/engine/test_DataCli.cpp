#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <array>

// segstudio-train's data commands as a user on a server runs them: import a SegNet-layout folder,
// info, stats, split (fractions and lists), export; the errors name the file; and the real
// CamVid when it is present.
class TestDataCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void importInfoStatsSplitExport();
    void errorsNameTheFile();
    void importsCamVid();
    void projectIsPositionalOrOptionAndLogsHaveLines();
    void badSizesAndFractionsAreRefusedNamingTheOption_data();
    void badSizesAndFractionsAreRefusedNamingTheOption();
    void failedPackWriteNamesThePackOnce();
    void binaryMasksImportByAValueMapAndPackAtTheirOwnSize();

private:
    QString run(const QStringList& arguments, int* exitCode = nullptr);
    QString importedProject(const QString& name);
    nlohmann::json runJson(const QStringList& arguments);
    QString path(const QString& name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;
    std::array<std::uint64_t, 3> m_trainPixels{};  // class 0, 1, 2 over the training label maps
};

void TestDataCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A SegNet folder: 4 train and 2 val images of 24x32; label value = (x / 8 + y / 8 + i) mod 3,
    // except one unlabelled (11) corner.
    for (const char* folder : {"set/train", "set/trainannot", "set/val", "set/valannot"})
        QVERIFY(QDir().mkpath(path(QString::fromLatin1(folder))));
    for (int i = 0; i < 6; ++i) {
        const QString split = i < 4 ? QStringLiteral("train") : QStringLiteral("val");
        QImage image(32, 24, QImage::Format_RGB888);
        QImage labels(32, 24, QImage::Format_Grayscale8);
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 32; ++x) {
                const int value = (x < 4 && y < 4) ? 11 : (x / 8 + y / 8 + i) % 3;
                labels.scanLine(y)[x] = uchar(value);
                image.setPixel(x, y, qRgb(value * 80, 40, 200 - value * 60));
                if (i < 4 && value < 3)
                    ++m_trainPixels[std::size_t(value)];
            }
        const QString name = QStringLiteral("img%1.png").arg(i);
        QVERIFY(image.save(path(QStringLiteral("set/%1/%2").arg(split, name))));
        QVERIFY(labels.save(path(QStringLiteral("set/%1annot/%2").arg(split, name))));
    }
}

namespace {

// stdout and stderr apart, so a JSON answer is parsed alone.
QProcess* startSeparate(QObject* parent, const QStringList& arguments)
{
    auto* process = new QProcess(parent);
    process->start(QStringLiteral(SEGSTUDIO_TRAIN_EXE), arguments);
    return process;
}

}  // namespace

QString TestDataCli::run(const QStringList& arguments, int* exitCode)
{
    auto* process = startSeparate(this, arguments);
    if (!process->waitForFinished(120000))
        process->kill();
    if (exitCode)
        *exitCode = process->exitCode();
    return QString::fromUtf8(process->readAllStandardOutput() + process->readAllStandardError());
}

nlohmann::json TestDataCli::runJson(const QStringList& arguments)
{
    auto* process = startSeparate(this, arguments);
    process->waitForFinished(120000);
    const QByteArray out = process->readAllStandardOutput();
    const auto json = nlohmann::json::parse(out.toStdString(), nullptr, false);
    if (json.is_discarded())
        qWarning() << out << process->readAllStandardError();
    return json;
}

void TestDataCli::importInfoStatsSplitExport()
{
    const QString project = path(QStringLiteral("p.segstudio"));
    int code = -1;
    QString output = run({QStringLiteral("import"), QStringLiteral("segnet"), path(QStringLiteral("set")), QStringLiteral("-o"),
                          project},
                         &code);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("imported 6 images")), qPrintable(output));

    auto info = runJson({QStringLiteral("info"), project, QStringLiteral("--json")});
    QCOMPARE(info.at("images").get<int>(), 6);
    QCOMPARE(info.at("splits").at("train").at("labelled").get<int>(), 4);
    QCOMPARE(info.at("splits").at("val").at("labelled").get<int>(), 2);
    QCOMPARE(info.at("classes").size(), std::size_t(11));

    auto stats = runJson({QStringLiteral("stats"), QStringLiteral("-P"), project, QStringLiteral("--json")});
    QCOMPARE(stats.at("label_maps").get<int>(), 4);
    QCOMPARE(stats.at("unlabelled_pixels").get<std::uint64_t>(), std::uint64_t(4 * 16));
    for (int c = 0; c < 3; ++c)
        QCOMPARE(stats.at("classes").at(std::size_t(c)).at("pixels").get<std::uint64_t>(), m_trainPixels[std::size_t(c)]);
    QCOMPARE(stats.at("classes").at(5).at("pixels").get<std::uint64_t>(), std::uint64_t(0));
    QVERIFY(stats.at("classes").at(0).at("median_frequency_weight").get<double>() > 0);

    output = run({QStringLiteral("split"), QStringLiteral("-P"), project, QStringLiteral("--train"), QStringLiteral("0.5"),
                  QStringLiteral("--val"), QStringLiteral("0.5"), QStringLiteral("--test"), QStringLiteral("0"),
                  QStringLiteral("--seed"), QStringLiteral("4")},
                 &code);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("3 train, 3 val, 0 test")), qPrintable(output));
    info = runJson({QStringLiteral("info"), project, QStringLiteral("--json")});
    QCOMPARE(info.at("splits").at("train").at("labelled").get<int>(), 3);

    QFile list(path(QStringLiteral("val.txt")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    list.write("/somewhere/else/img1.png /somewhere/else/annot/img1.png\nimg4.png\n");
    list.close();
    output = run({QStringLiteral("split"), QStringLiteral("-P"), project, QStringLiteral("--val-list"), list.fileName()}, &code);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("0 train, 2 val, 0 test, 4 unassigned")), qPrintable(output));

    output = run({QStringLiteral("export"), QStringLiteral("-P"), project, QStringLiteral("-o"), path(QStringLiteral("out")),
                  QStringLiteral("--format"), QStringLiteral("color-masks")},
                 &code);
    QVERIFY2(code == 0, qPrintable(output));
    QCOMPARE(QDir(path(QStringLiteral("out/masks"))).entryList(QDir::Files).size(), 6);
    QVERIFY(QFileInfo::exists(path(QStringLiteral("out/classes.json"))));
}

void TestDataCli::errorsNameTheFile()
{
    int code = 0;
    // A project that exists is never overwritten by an import.
    QFile existing(path(QStringLiteral("taken.segstudio")));
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.write("{}");
    existing.close();
    QString output = run({QStringLiteral("import"), QStringLiteral("segnet"), path(QStringLiteral("set")), QStringLiteral("-o"),
                          existing.fileName()},
                         &code);
    QVERIFY(code != 0);
    QVERIFY2(output.contains(existing.fileName() + QStringLiteral(": exists already")), qPrintable(output));
    QFile content(existing.fileName());
    QVERIFY(content.open(QIODevice::ReadOnly));
    QCOMPARE(content.readAll(), QByteArray("{}"));

    // A list naming an image the project does not have.
    const QString project = path(QStringLiteral("q.segstudio"));
    run({QStringLiteral("import"), QStringLiteral("segnet"), path(QStringLiteral("set")), QStringLiteral("-o"), project});
    QFile list(path(QStringLiteral("bad.txt")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    list.write("nowhere.png\n");
    list.close();
    output = run({QStringLiteral("split"), QStringLiteral("-P"), project, QStringLiteral("--train-list"), list.fileName()}, &code);
    QVERIFY(code != 0);
    QVERIFY2(output.contains(list.fileName()) && output.contains(QStringLiteral("nowhere.png")), qPrintable(output));

    // A corrupt project file.
    QFile broken(path(QStringLiteral("broken.segstudio")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\"format\": 1, \"ima");
    broken.close();
    output = run({QStringLiteral("info"), broken.fileName()}, &code);
    QVERIFY(code != 0);
    QVERIFY2(output.contains(broken.fileName()), qPrintable(output));
}

void TestDataCli::importsCamVid()
{
    const QString camvid = QStringLiteral(SEGSTUDIO_CAMVID_DIR);
    if (!QFileInfo::exists(camvid + QStringLiteral("/train.txt")))
        QSKIP("CamVid is not at SEGSTUDIO_CAMVID_DIR");
    const QString project = path(QStringLiteral("camvid.segstudio"));
    int code = -1;
    const QString output = run({QStringLiteral("import"), QStringLiteral("segnet"), camvid, QStringLiteral("-o"), project}, &code);
    QVERIFY2(code == 0, qPrintable(output));
    const auto info = runJson({QStringLiteral("info"), project, QStringLiteral("--json")});
    QCOMPARE(info.at("splits").at("train").at("labelled").get<int>(), 367);
    QCOMPARE(info.at("splits").at("val").at("labelled").get<int>(), 101);
    const auto stats = runJson({QStringLiteral("stats"), QStringLiteral("-P"), project, QStringLiteral("--json")});
    // Road, building and sky are CamVid's largest classes, pedestrian and bicyclist its rarest.
    const auto share = [&](int id) { return stats.at("classes").at(std::size_t(id)).at("share").get<double>(); };
    QVERIFY(share(3) > 0.2 && share(1) > 0.15 && share(0) > 0.1);
    QVERIFY(share(9) < 0.01 && share(10) < 0.01);
    // The rarest class gets the largest median-frequency weight.
    const auto weight = [&](int id) { return stats.at("classes").at(std::size_t(id)).at("median_frequency_weight").get<double>(); };
    for (int id = 0; id < 10; ++id)
        QVERIFY(weight(10) > weight(id));
}


// Issue 27, item 8: every data command takes the project either way (`info PROJECT` and
// `stats -P PROJECT` used to be the only forms), and progress written into a pipe or a log is
// plain lines, never a carriage-return line rewritten in place.
void TestDataCli::projectIsPositionalOrOptionAndLogsHaveLines()
{
    const QString project = path(QStringLiteral("both.segstudio"));
    int code = -1;
    const QString imported = run({QStringLiteral("import"), QStringLiteral("segnet"), path(QStringLiteral("set")),
                                  QStringLiteral("-o"), project},
                                 &code);
    QVERIFY2(code == 0, qPrintable(imported));
    QVERIFY2(!imported.contains(QLatin1Char('\r')), qPrintable(imported));
    QVERIFY2(imported.contains(QStringLiteral("6/6\n")), qPrintable(imported));
    QCOMPARE(runJson({QStringLiteral("info"), QStringLiteral("-P"), project, QStringLiteral("--json")}),
             runJson({QStringLiteral("info"), project, QStringLiteral("--json")}));
    QCOMPARE(runJson({QStringLiteral("stats"), project, QStringLiteral("--json")}),
             runJson({QStringLiteral("stats"), QStringLiteral("--project"), project, QStringLiteral("--json")}));
    const QString packed = run({QStringLiteral("pack"), project, QStringLiteral("-s"), QStringLiteral("train"),
                                QStringLiteral("-o"), path(QStringLiteral("both.pack")), QStringLiteral("--height"),
                                QStringLiteral("8"), QStringLiteral("--width"), QStringLiteral("8")},
                               &code);
    QVERIFY2(code == 0 && packed.contains(QStringLiteral("packed 4 train images")), qPrintable(packed));
    QVERIFY2(!packed.contains(QLatin1Char('\r')), qPrintable(packed));
    // Issue 65.4: two packs to one output at once both said success (the second took the partial
    // file's lock after the first had renamed it): the output is claimed for the whole command.
    {
        QProcess holder;
        // flock(1) says "locked" once it holds the lock, then waits for its input to close.
        holder.start(QStringLiteral("flock"), {path(QStringLiteral("both.pack.lock")), QStringLiteral("sh"), QStringLiteral("-c"),
                                               QStringLiteral("echo locked; cat")});
        QVERIFY(holder.waitForStarted());
        QVERIFY(holder.waitForReadyRead(60000));
        QCOMPARE(holder.readAllStandardOutput(), QByteArray("locked\n"));
        const QString refused = run({QStringLiteral("pack"), project, QStringLiteral("-s"), QStringLiteral("train"),
                                     QStringLiteral("-o"), path(QStringLiteral("both.pack")), QStringLiteral("--height"),
                                     QStringLiteral("8"), QStringLiteral("--width"), QStringLiteral("8")},
                                    &code);
        holder.closeWriteChannel();
        QVERIFY(holder.waitForFinished());
        QVERIFY2(code != 0 && refused.contains(QStringLiteral("another pack is writing it")), qPrintable(refused));
    }
    // Issue 65.4: info on a pack said "not a valid project file": what it holds instead.
    const QString about = run({QStringLiteral("info"), path(QStringLiteral("both.pack"))}, &code);
    QVERIFY2(code == 0 && about.contains(QStringLiteral("a training pack, 4 images of 8x8")) &&
                 about.contains(QStringLiteral("checksum verified")),
             qPrintable(about));
    QCOMPARE(runJson({QStringLiteral("info"), path(QStringLiteral("both.pack")), QStringLiteral("--json")})["images"], 4);
    const QString exported = run({QStringLiteral("export"), project, QStringLiteral("-o"), path(QStringLiteral("both-out"))}, &code);
    QVERIFY2(code == 0 && !exported.contains(QLatin1Char('\r')), qPrintable(exported));
}

// The SegNet folder of initTestCase imported once as `name`.
QString TestDataCli::importedProject(const QString& name)
{
    const QString project = path(name);
    if (!QFileInfo::exists(project))
        run({QStringLiteral("import"), QStringLiteral("segnet"), path(QStringLiteral("set")), QStringLiteral("-o"),
             project});
    return project;
}

// Issue 46, items 11-12: pack --height 40000 (a pack of 4 x 40000 x 40000 x 4 bytes) and split
// --train inf were accepted. Sizes are whole numbers in [1, 16384], fractions finite numbers in
// [0, 1], and the refusal names the option before anything is written.
void TestDataCli::badSizesAndFractionsAreRefusedNamingTheOption_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("expected");
    const QString out = path(QStringLiteral("never.pack"));
    const auto pack = [&](const QString& option, const QString& value) {
        return QStringList{QStringLiteral("pack"), QStringLiteral("-s"), QStringLiteral("train"), QStringLiteral("-o"), out}
               << option << value;
    };
    const auto split = [](const QString& option, const QString& value) {
        return QStringList{QStringLiteral("split"), option, value};
    };
    QTest::newRow("pack --height 40000") << pack(QStringLiteral("--height"), QStringLiteral("40000"))
                                         << "--height: 40000 is not in [1, 16384]";
    QTest::newRow("pack --width 0") << pack(QStringLiteral("--width"), QStringLiteral("0"))
                                    << "--width: 0 is not in [1, 16384]";
    QTest::newRow("pack --height -8") << pack(QStringLiteral("--height"), QStringLiteral("-8"))
                                      << "--height: -8 is not in [1, 16384]";
    QTest::newRow("pack --width abc") << pack(QStringLiteral("--width"), QStringLiteral("abc"))
                                      << "--width: 'abc' is not a number";
    QTest::newRow("split --train inf") << split(QStringLiteral("--train"), QStringLiteral("inf"))
                                       << "--train: inf is not a finite number";
    QTest::newRow("split --val nan") << split(QStringLiteral("--val"), QStringLiteral("nan"))
                                     << "--val: nan is not a finite number";
    QTest::newRow("split --test 1.5") << split(QStringLiteral("--test"), QStringLiteral("1.5"))
                                      << "--test: 1.5 is not in [0, 1]";
    QTest::newRow("split --train -0.5") << split(QStringLiteral("--train"), QStringLiteral("-0.5"))
                                        << "--train: -0.5 is not in [0, 1]";
}

void TestDataCli::badSizesAndFractionsAreRefusedNamingTheOption()
{
    QFETCH(QStringList, options);
    QFETCH(QString, expected);
    const QString project = importedProject(QStringLiteral("checked.segstudio"));
    QFile file(project);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();
    int code = -1;
    const QString output = run(QStringList{options.front(), project} + options.mid(1), &code);
    QVERIFY2(code == 1 && output.contains(expected), qPrintable(output));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);  // split saved nothing
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("never.pack"))));
    QVERIFY(!QFileInfo::exists(path(QStringLiteral("never.pack.partial"))));
}

// Issue 46.11: pack's disk-full error named the pack twice ("x.pack.partial: x.pack.partial:
// write failed ..."). A file-size limit makes the same write fail for real on any machine: the
// shell ignores SIGXFSZ, so the write returns EFBIG as a full disk returns ENOSPC, down the same path.
void TestDataCli::failedPackWriteNamesThePackOnce()
{
    const QString project = importedProject(QStringLiteral("limited.segstudio"));
    const QString out = path(QStringLiteral("limited.pack"));
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("/bin/sh"),
                  {QStringLiteral("-c"), QStringLiteral("ulimit -f 1 && trap '' XFSZ && exec \"$0\" \"$@\""),
                   QStringLiteral(SEGSTUDIO_TRAIN_EXE), QStringLiteral("pack"), project, QStringLiteral("-s"),
                   QStringLiteral("train"), QStringLiteral("-o"), out, QStringLiteral("--height"), QStringLiteral("64"),
                   QStringLiteral("--width"), QStringLiteral("64")});
    QVERIFY(process.waitForFinished(120000));
    const QString output = QString::fromUtf8(process.readAll());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(process.exitCode() == 1, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("segstudio-train: ") + out
                             + QStringLiteral(".partial: write failed: File too large")),
             qPrintable(output));
    QVERIFY2(output.count(out) == 1, qPrintable(output));
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY(!QFileInfo::exists(out + QStringLiteral(".partial")));
}

// Issue 62.3: square grey images with binary 0/255 masks (a microscopy set): index-png took the
// stored values for class ids; `pack` without --height/--width packed every project at CamVid's
// 360x480. A value map names the classes; the pack keeps the images' own size and says so.
void TestDataCli::binaryMasksImportByAValueMapAndPackAtTheirOwnSize()
{
    for (const char* folder : {"em/images", "em/masks"})
        QVERIFY(QDir().mkpath(path(QString::fromLatin1(folder))));
    for (int i = 0; i < 3; ++i) {
        QImage image(40, 40, QImage::Format_Grayscale8), mask(40, 40, QImage::Format_Grayscale8);
        for (int y = 0; y < 40; ++y)
            for (int x = 0; x < 40; ++x) {
                const bool membrane = (x + i) % 10 < 2 || y % 10 < 2;
                image.scanLine(y)[x] = uchar(membrane ? 30 : 200);
                mask.scanLine(y)[x] = uchar(membrane ? 0 : 255);
            }
        QVERIFY(image.save(path(QStringLiteral("em/images/slice%1.png").arg(i))));
        QVERIFY(mask.save(path(QStringLiteral("em/masks/slice%1.png").arg(i))));
    }
    int code = -1;
    const QString project = path(QStringLiteral("em.segstudio"));
    const auto import = [&](const QString& values, const QString& out) {
        return run({QStringLiteral("import"), QStringLiteral("index-png"), path(QStringLiteral("em/images")), QStringLiteral("--labels"),
                    path(QStringLiteral("em/masks")), QStringLiteral("--values"), values, QStringLiteral("-o"), out},
                   &code);
    };
    QString output = import(QStringLiteral("0=Membrane,255=Cell"), project);
    QVERIFY2(code == 0, qPrintable(output));
    output = run({QStringLiteral("split"), project, QStringLiteral("--train"), QStringLiteral("1"), QStringLiteral("--val"),
                  QStringLiteral("0")},
                 &code);
    QVERIFY2(code == 0, qPrintable(output));
    const auto stats = runJson({QStringLiteral("stats"), project, QStringLiteral("--json")});
    QCOMPARE(stats["classes"].size(), std::size_t(2));
    QCOMPARE(stats["classes"][0]["name"], "Membrane");
    QCOMPARE(stats["classes"][1]["name"], "Cell");
    QVERIFY(stats["classes"][0]["pixels"] > 0 && stats["classes"][1]["pixels"] > stats["classes"][0]["pixels"]);
    output = run({QStringLiteral("pack"), project, QStringLiteral("-s"), QStringLiteral("train"), QStringLiteral("-o"),
                  path(QStringLiteral("em.pack"))},
                 &code);
    QVERIFY2(code == 0 && output.contains(QStringLiteral("packing at 40x40: the images' own size")) &&
                 output.contains(QStringLiteral("(40x40)")),
             qPrintable(output));
    // A value the map does not name is refused, naming the mask and the value; so is a bad entry.
    QImage odd(40, 40, QImage::Format_Grayscale8);
    odd.fill(128);
    QVERIFY(odd.save(path(QStringLiteral("em/masks/slice1.png"))));
    output = import(QStringLiteral("0=Membrane,255=Cell"), path(QStringLiteral("odd.segstudio")));
    QVERIFY2(code != 0 && output.contains(QStringLiteral("slice1.png: holds the value 128")), qPrintable(output));
    output = import(QStringLiteral("0=Membrane,x=Cell"), path(QStringLiteral("odd.segstudio")));
    QVERIFY2(code != 0 && output.contains(QStringLiteral("whole number from 0 to 255")), qPrintable(output));
}

QTEST_GUILESS_MAIN(TestDataCli)
#include "test_DataCli.moc"
