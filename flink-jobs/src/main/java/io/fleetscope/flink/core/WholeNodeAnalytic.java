package io.fleetscope.flink.core;

import java.io.Serializable;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * A {@link NodeAnalytic} with one unit per node ({@link #NODE}): its tick gets every record of the
 * node (or device) on its inputs. Besides the shared node stage, such an analytic also runs in a
 * keyed operator of its own ({@link KeyedAnalyticFunction}), e.g. for the device streams.
 */
public abstract class WholeNodeAnalytic<IN extends SpecificRecord, OUT, S extends Serializable>
    extends NodeAnalytic<IN, String, OUT, S> {
  private static final long serialVersionUID = 1L;

  protected WholeNodeAnalytic(String topic, long tickMs, TypeInformation<OUT> outType,
      Set<Class<? extends SpecificRecord>> inputs) {
    super(topic, tickMs, outType, inputs);
  }

  @Override
  protected final String unitOf(IN r) {
    return NODE;
  }

  @Override
  protected final boolean isUnitOf(String unit, IN r) {
    return true;
  }
}
