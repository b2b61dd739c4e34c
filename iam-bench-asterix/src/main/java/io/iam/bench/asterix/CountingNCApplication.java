package io.iam.bench.asterix;

import io.iam.asterix.app.IamNCApplication;
import java.lang.reflect.Field;
import org.apache.asterix.app.nc.NCAppRuntimeContext;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;

/**
 * The embedded NC's application: IAM's ({@link IamNCApplication}, so our policies are registered
 * as on a cluster), and the NC's LSM IO scheduler wrapped by {@link IoCounter} once the node has
 * started, so every flush and merge of the datasets created afterwards is counted with its size.
 * AsterixDB 0.9.8 has no setter for the scheduler; it is replaced in the runtime context's field,
 * from which every index opened later takes it. Its HTTP server (the NC API) listens on loopback
 * ({@link LoopbackOnly}).
 */
public class CountingNCApplication extends IamNCApplication {

  @Override
  protected void configureServers() throws Exception {
    super.configureServers();
    LoopbackOnly.rebind(webManager);
  }

  @Override
  public void start(String[] args) throws Exception {
    super.start(args);
    Field f = NCAppRuntimeContext.class.getDeclaredField("lsmIOScheduler");
    f.setAccessible(true);
    f.set(runtimeContext, IoCounter.wrap((ILSMIOOperationScheduler) f.get(runtimeContext),
        runtimeContext.getServiceContext().getNodeId()));
  }
}
