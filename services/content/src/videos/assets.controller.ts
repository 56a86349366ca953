import { Controller, Req, Res } from '@nestjs/common';
import { CurrentUser, Endpoint, type AuthUser } from '@uis/kit';
import { routes } from '@uis/proto';
import type { Request, Response } from 'express';
import { AssetsService } from './assets.service';

/** The video bytes, not the envelope: the service writes the response itself (status, headers, stream). */
@Controller()
export class AssetsController {
  constructor(private readonly assets: AssetsService) {}

  @Endpoint(routes.videoAsset)
  videoAsset(@CurrentUser() user: AuthUser, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.assets.serve(user, req, res);
  }
}
