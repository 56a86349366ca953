import { describeServiceBasics } from '@uis/kit/testing';
import { studiesService } from '../src';

describeServiceBasics(studiesService);
