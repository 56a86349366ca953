import { describeServiceBasics } from '@uis/kit/testing';
import { signalService } from '../src';

describeServiceBasics(signalService);
