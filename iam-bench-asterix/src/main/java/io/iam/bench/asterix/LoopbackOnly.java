package io.iam.bench.asterix;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.rmi.server.RMISocketFactory;
import java.util.List;
import org.apache.hyracks.control.cc.ClusterControllerService;
import org.apache.hyracks.http.server.HttpServer;
import org.apache.hyracks.http.server.WebManager;

/**
 * Binds the listeners of an embedded AsterixDB that its configuration cannot place to the loopback
 * address. AsterixDB 0.9.8 binds its HTTP servers (the CC's API, web and query-interface ports, the
 * NC's API port) to the wildcard address with no setting to change it, and exports its CC/NC state
 * proxies over RMI, which listens on the wildcard address too; the CC's console (Hyracks' web
 * server) ignores {@code console.listen.address}. The IPC, data, result and messaging listeners are
 * placed by {@code *.listen.address} in the embedded {@code cc.conf}.
 */
final class LoopbackOnly {

  private LoopbackOnly() {}

  /**
   * Points every server of {@code web}, configured but not started, at the same port on loopback.
   * {@link HttpServer} takes its addresses only in its constructor; they are set in its fields.
   *
   * @throws IllegalStateException if this AsterixDB's {@link HttpServer} has no such fields
   */
  static void rebind(WebManager web) {
    for (HttpServer server : web.getServers()) {
      InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getAddress().getPort());
      set(server, "addresses", List.of(loopback));
      set(server, "defaultAddress", loopback);
    }
  }

  /**
   * Moves the CC's console (Hyracks' own web server, started with the CC before any application
   * code can reach it) to loopback: each of its servers is stopped, pointed at the same port on
   * loopback and started again.
   *
   * @throws IllegalStateException if this Hyracks' CC has no such fields
   */
  static void rebindConsole(ClusterControllerService cc) throws Exception {
    WebManager web;
    try {
      Field server = ClusterControllerService.class.getDeclaredField("webServer");
      server.setAccessible(true);
      Object console = server.get(cc);
      Field manager = console.getClass().getDeclaredField("webMgr");
      manager.setAccessible(true);
      web = (WebManager) manager.get(console);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("asterixdb: cannot reach the CC's console web server: " + e, e);
    }
    for (HttpServer server : web.getServers()) {
      server.stop();
    }
    rebind(web);
    for (HttpServer server : web.getServers()) {
      startWhenPortIsFree(server);
    }
  }

  /** Starts a stopped server once its port is released (closing is asynchronous), within 5 s. */
  private static void startWhenPortIsFree(HttpServer server) throws Exception {
    int port = server.getAddress().getPort();
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (true) {
      try (ServerSocket probe = new ServerSocket(port)) {
        break;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw new IOException("asterixdb: the CC console's port " + port + " was not released", e);
        }
        Thread.sleep(50);
      }
    }
    server.start();
  }

  private static void set(HttpServer server, String field, Object value) {
    try {
      Field f = HttpServer.class.getDeclaredField(field);
      f.setAccessible(true);
      f.set(server, value);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("asterixdb: cannot bind " + server + " to loopback: " + e, e);
    }
  }

  /**
   * Makes RMI, in this JVM, listen on loopback only (the JVM's first RMI socket factory wins; a
   * factory set before is kept and reported false).
   */
  static synchronized boolean rmiOnLoopback() throws IOException {
    if (RMISocketFactory.getSocketFactory() != null) {
      return RMISocketFactory.getSocketFactory() instanceof LoopbackRmi;
    }
    RMISocketFactory.setSocketFactory(new LoopbackRmi());
    return true;
  }

  /** RMI's sockets on the loopback address. */
  private static final class LoopbackRmi extends RMISocketFactory {
    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return new Socket(host, port);
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
      return new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    }
  }
}
