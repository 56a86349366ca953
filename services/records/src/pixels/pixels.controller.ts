import { Controller } from '@nestjs/common';
import { CurrentUser, Endpoint, Input, type AuthUser } from '@uis/kit';
import { routes, type AnswerOf, type ParsedRequestOf } from '@uis/proto';
import { PixelsService } from './pixels.service';

/** Spec section 7's pixel calls, all for the session's owner. */
@Controller()
export class PixelsController {
  constructor(private readonly pixels: PixelsService) {}

  @Endpoint(routes.getPixels)
  async getPixels(
    @CurrentUser() user: AuthUser,
    @Input() { sessionId, after }: ParsedRequestOf<'getPixels'>,
  ): Promise<AnswerOf<'getPixels'>> {
    const { rows, next } = await this.pixels.listFor(user, sessionId, after);
    return { pixels: rows, next };
  }

  @Endpoint(routes.addPixel)
  async addPixel(
    @CurrentUser() user: AuthUser,
    // `name` is dropped: the recorded name is the caller's own.
    @Input() { name: _name, ...click }: ParsedRequestOf<'addPixel'>,
  ): Promise<AnswerOf<'addPixel'>> {
    return { pixel: await this.pixels.addFor(user, click) };
  }

  @Endpoint(routes.deletePixel)
  async deletePixel(
    @CurrentUser() user: AuthUser,
    @Input() { pixelId }: ParsedRequestOf<'deletePixel'>,
  ): Promise<AnswerOf<'deletePixel'>> {
    await this.pixels.deleteFor(user, pixelId);
    return { message: 'Pixel deleted.' };
  }
}
