package io.iam.bench.asterix;

import io.iam.asterix.app.IamCCApplication;

/**
 * The embedded CC's application: IAM's ({@link IamCCApplication}), with its HTTP servers on the
 * loopback address ({@link LoopbackOnly}).
 */
public class EmbeddedCCApplication extends IamCCApplication {

  @Override
  protected void configureServers() throws Exception {
    super.configureServers();
    LoopbackOnly.rebind(webManager);
  }
}
