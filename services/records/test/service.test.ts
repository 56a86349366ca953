import { describeServiceBasics } from '@uis/kit/testing';
import { recordsService } from '../src';

describeServiceBasics(recordsService);
