// Tests print only the SDK's warnings and errors; worker state changes would drown the report.
import { installSdkLogging } from '../../src/temporal/sdk-logging';
import { createLogger } from '../../src/logging/logger';

installSdkLogging(createLogger({ source: 'temporal-sdk' }, 'warn'), 'WARN');
