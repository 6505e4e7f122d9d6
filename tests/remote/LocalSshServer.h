#pragma once

#include "remote/RemoteTarget.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace segstudio::remotetest {

// A real sshd on 127.0.0.1, on a free port, for this user only, with keys made for the test in
// its folder (Debian's openssh-server): what a remote machine is to the GUI. The client side is
// a config file (-F) naming the key and a known-hosts file of the folder: nothing of the user's
// ~/.ssh is read or written. Stopped in the destructor.
class LocalSshServer {
public:
    explicit LocalSshServer(const QString& folder, QStringList environment = {})
        : m_folder(folder), m_environment(std::move(environment))
    {
    }
    ~LocalSshServer() { stop(); }
    // The server gone (the sessions it serves end with it); start() again serves the same port
    // with the same keys.
    void stop()
    {
        if (m_server.state() != QProcess::NotRunning) {
            m_server.terminate();
            if (!m_server.waitForFinished(10000))
                m_server.kill();
        }
        // Its session processes (one per connection, in this test's process tree) end with their
        // connections; none outlives the test.
    }

    static QString sshd() { return QStringLiteral("/usr/sbin/sshd"); }
    // Why there can be no server here, or empty.
    static QString missing()
    {
        for (const QString& program : {sshd(), QStringLiteral("/usr/bin/ssh"), QStringLiteral("/usr/bin/ssh-keygen"),
                                       QStringLiteral("/usr/bin/rsync")})
            if (!QFileInfo(program).isExecutable())
                return program + QStringLiteral(" is missing (Debian: apt install openssh-server openssh-client rsync; "
                                                "packaging/install-deps.sh does)");
        return {};
    }

    // Empty when the server answers an ssh login, else why not.
    QString start()
    {
        QDir().mkpath(m_folder);
        for (const QString& key : {QStringLiteral("host_key"), QStringLiteral("client_key")})
            if (!QFileInfo::exists(file(key)) && run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                   QStringLiteral("-N"), QString(), QStringLiteral("-f"), file(key)}) != 0)
                return QStringLiteral("ssh-keygen failed");
        QFile::copy(file(QStringLiteral("client_key.pub")), file(QStringLiteral("authorized_keys")));
        if (m_port == 0)
            m_port = freePort();
        QString config = QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nAuthorizedKeysFile %3\nPidFile %4\n"
                                        "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPubkeyAuthentication yes\n"
                                        "PermitRootLogin prohibit-password\nStrictModes no\nUsePAM no\nLogLevel VERBOSE\n")
                             .arg(m_port)
                             .arg(file(QStringLiteral("host_key")), file(QStringLiteral("authorized_keys")),
                                  file(QStringLiteral("sshd.pid")));
        if (!m_environment.isEmpty())
            config += QStringLiteral("SetEnv %1\n").arg(m_environment.join(QLatin1Char(' ')));
        write(QStringLiteral("sshd_config"), config);
        write(QStringLiteral("ssh_config"),
              QStringLiteral("Host *\n  IdentityFile %1\n  IdentitiesOnly yes\n  UserKnownHostsFile %2\n"
                             "  StrictHostKeyChecking accept-new\n  LogLevel ERROR\n")
                  .arg(file(QStringLiteral("client_key")), file(QStringLiteral("known_hosts"))));
        QDir().mkpath(QStringLiteral("/run/sshd"));  // sshd's privilege separation folder (as root)
        m_server.setProcessChannelMode(QProcess::MergedChannels);
        m_server.start(sshd(), {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), file(QStringLiteral("sshd_config"))});
        if (!m_server.waitForStarted(10000))
            return QStringLiteral("sshd did not start");
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 30000) {
            if (m_server.state() == QProcess::NotRunning)
                return QStringLiteral("sshd ended: ") + QString::fromUtf8(m_server.readAll());
            if (run(QStringLiteral("ssh"), {QStringLiteral("-F"), file(QStringLiteral("ssh_config")), QStringLiteral("-p"),
                                            QString::number(m_port), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                                            QStringLiteral("127.0.0.1"), QStringLiteral("true")}) == 0)
                return {};
            m_server.waitForReadyRead(200);  // a bounded wait for sshd to come up, not a sleep
        }
        return QStringLiteral("sshd did not answer: ") + QString::fromUtf8(m_server.readAll());
    }

    // This server as a remote machine: this user at 127.0.0.1, the test's client config.
    remote::RemoteTarget target() const
    {
        remote::RemoteTarget target;
        target.host = "127.0.0.1";
        target.user = qgetenv("USER").isEmpty() ? std::string(::getuid() == 0 ? "root" : "") : qgetenv("USER").toStdString();
        target.port = m_port;
        target.sshOptions = {"-F", file(QStringLiteral("ssh_config")).toStdString()};
        return target;
    }
    int port() const { return m_port; }
    QString log() { return QString::fromUtf8(m_server.readAll()); }

private:
    QString file(const QString& name) const { return m_folder + QLatin1Char('/') + name; }
    void write(const QString& name, const QString& text) const
    {
        QFile out(file(name));
        out.open(QIODevice::WriteOnly);
        out.write(text.toUtf8());
    }
    static int run(const QString& program, const QStringList& arguments)
    {
        QProcess process;
        process.start(program, arguments);
        if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit)
            return -1;
        return process.exitCode();
    }
    static int freePort()
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        int port = 0;
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            port = ntohs(address.sin_port);
        if (fd >= 0)
            ::close(fd);
        return port;
    }

    QString m_folder;
    QStringList m_environment;
    QProcess m_server;
    int m_port = 0;
};

}  // namespace segstudio::remotetest
