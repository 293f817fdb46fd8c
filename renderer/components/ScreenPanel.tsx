import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { Point, Rect } from '../../shared/model/values.js';
import { useSlice, useStores } from '../app-context.js';
import { nodeLabel } from '../model/labels.js';
import {
  anchoredScroll,
  fitZoom,
  keySequence,
  rectToView,
  viewToDesktop,
  zoomStep,
} from '../model/screen-transform.js';
import { selectCapabilities } from '../stores/host-state-store.js';

const BUTTONS = ['left', 'middle', 'right'] as const;

const boxStyle = (rect: Rect) => ({ left: rect.x, top: rect.y, width: rect.width, height: rect.height });

function Box({ rect, kind, title }: { rect: Rect; kind: string; title?: string }) {
  return <div className={`screen-box ${kind}`} data-box={kind} title={title} style={boxStyle(rect)} />;
}

/**
 * The live desktop, scaled uniformly to fit from its top-left corner (or zoomed with Ctrl+wheel), with boxes for the
 * selected node, the hovered tree row, the XPath matches and the last "Highlight all". Hovering shows what is under
 * the pointer, a click selects it in the tree, the wheel cycles through overlapping elements. In interact mode
 * clicks, the wheel and typed keys go to the application instead.
 */
export function ScreenPanel() {
  const { screen, tree, hostState } = useStores();
  const image = useSlice(screen, (s) => s.image);
  const zoomSetting = useSlice(screen, (s) => s.zoom);
  const interact = useSlice(screen, (s) => s.interact);
  const hover = useSlice(screen, (s) => s.hover);
  const boxes = useSlice(screen, (s) => s.boxes);
  const error = useSlice(screen, (s) => s.error);
  const canInteract = useSlice(hostState, (s) => selectCapabilities(s).interact);
  const viewportRef = useRef<HTMLDivElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const [viewport, setViewport] = useState({ width: 0, height: 0 });

  useEffect(() => {
    // Shown now; after that the page's visibility decides (a hidden tab asks for no captures).
    screen.getState().setVisible(true);
    const onVisibility = () => screen.getState().setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      screen.getState().setVisible(false);
    };
  }, [screen]);

  useEffect(() => {
    const element = viewportRef.current;
    if (!element) return;
    const measure = () => setViewport({ width: element.clientWidth, height: element.clientHeight });
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // desktopZoom: CSS pixels per desktop pixel; zoom: CSS pixels per image pixel (the image may be scaled down).
  const desktopZoom = zoomSetting === 'fit' ? (image ? fitZoom(image.region, viewport) : 1) : zoomSetting;
  const zoom = image ? desktopZoom / image.transform.scale : 1;
  useEffect(() => {
    screen.getState().showAtScale(desktopZoom * (window.devicePixelRatio || 1));
  }, [screen, desktopZoom]);

  /** The desktop point under a pointer event (undefined before the first image). */
  const pointOf = (event: { clientX: number; clientY: number }): Point | undefined => {
    const element = imageRef.current;
    if (!image || !element) return undefined;
    const bounds = element.getBoundingClientRect();
    return viewToDesktop({ x: event.clientX - bounds.left, y: event.clientY - bounds.top }, image.transform, zoom);
  };

  // The wheel listener must be able to cancel scrolling: React attaches wheel listeners as passive.
  const wheelState = useRef({ zoom: desktopZoom, interact, pointOf });
  wheelState.current = { zoom: desktopZoom, interact, pointOf };
  useEffect(() => {
    const element = viewportRef.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      const { zoom: current, interact: interacting, pointOf: toDesktop } = wheelState.current;
      if (event.ctrlKey) {
        event.preventDefault();
        const next = zoomStep(current, event.deltaY);
        const bounds = element.getBoundingClientRect();
        const scroll = anchoredScroll(
          { x: element.scrollLeft, y: element.scrollTop },
          { x: event.clientX - bounds.left, y: event.clientY - bounds.top },
          current,
          next,
        );
        screen.getState().setZoom(next);
        requestAnimationFrame(() => element.scrollTo(scroll.x, scroll.y));
        return;
      }
      const point = toDesktop(event);
      if (!point) return;
      event.preventDefault();
      if (interacting) void screen.getState().scroll(point, Math.sign(event.deltaX), Math.sign(event.deltaY));
      else screen.getState().cycle(Math.sign(event.deltaY));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [screen]);

  const onPointerMove = (event: MouseEvent) => {
    if (interact) return;
    const point = pointOf(event);
    if (point) void screen.getState().hoverAt(point);
  };

  const onClick = async (event: MouseEvent) => {
    const point = pointOf(event);
    if (!point) return;
    viewportRef.current?.focus();
    if (interact) {
      await screen.getState().click(point, BUTTONS[event.button] ?? 'left');
      return;
    }
    const hit = await screen.getState().elementAt(point);
    if (hit) await tree.getState().reveal(hit.node.runtimeId);
    else hostState.getState().say('Nothing on screen there has an element');
  };

  const onAuxClick = (event: MouseEvent) => {
    if (!interact) return;
    event.preventDefault();
    const point = pointOf(event);
    if (point) void screen.getState().click(point, BUTTONS[event.button] ?? 'middle');
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!interact) return;
    // Shift+Tab leaves the screen (a way out of interact mode by keyboard); every other key goes to the application.
    if (event.key === 'Tab' && event.shiftKey) return;
    const sequence = keySequence(event);
    if (!sequence) return;
    event.preventDefault();
    void screen.getState().type(sequence);
  };

  const chosen = hover?.stack[hover.depth];
  const view = (rect: Rect) => (image ? rectToView(rect, image.transform, zoom) : rect);
  return (
    <section className="screen-panel" aria-label="Screen panel">
      <div className="toolbar">
        <button
          type="button"
          aria-pressed={zoomSetting === 'fit'}
          onClick={() => screen.getState().setZoom('fit')}
          title="Show the whole desktop"
        >
          Fit
        </button>
        <span className="muted zoom">{Math.round(desktopZoom * 100)}%</span>
        <button
          type="button"
          aria-pressed={interact}
          disabled={!canInteract}
          onClick={() => screen.getState().setInteract(!interact)}
          title="Send clicks, the wheel and typed keys to the application (Shift+Tab leaves the screen)"
        >
          Interact
        </button>
        <span className="screen-hover" role="status" aria-live="polite">
          {interact
            ? 'Interacting: clicks, wheel and keys go to the application'
            : chosen
              ? `${nodeLabel(chosen.node)} (${hover!.depth + 1}/${hover!.stack.length})`
              : hover
                ? 'No element here'
                : ''}
        </span>
      </div>
      {error ? (
        <p className="warning" role="alert">
          {error}
        </p>
      ) : null}
      <div
        ref={viewportRef}
        className={`screen-viewport${interact ? ' interact' : ''}`}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onContextMenu={(event) => interact && event.preventDefault()}
      >
        {image ? (
          <div className="screen-canvas" style={{ width: image.width * zoom, height: image.height * zoom }}>
            <img
              ref={imageRef}
              src={image.url}
              alt="Screen"
              draggable={false}
              width={image.width * zoom}
              height={image.height * zoom}
              onLoad={(event) => {
                const requestedAt = image.requestedAt;
                void event.currentTarget.decode().then(
                  () => performance.measure('screen-frame', { start: requestedAt, end: performance.now() }),
                  () => undefined,
                );
              }}
              onMouseMove={onPointerMove}
              onMouseLeave={() => screen.getState().leave()}
              onClick={(event) => void onClick(event)}
              onAuxClick={onAuxClick}
            />
            {boxes.matches.map((rect, index) => (
              <Box key={`m${index}`} rect={view(rect)} kind="match" />
            ))}
            {boxes.highlighted.map((rect, index) => (
              <Box key={`h${index}`} rect={view(rect)} kind="highlighted" />
            ))}
            {boxes.tabOrder.map((marker) => (
              <div
                key={`t${marker.number}`}
                className="screen-box tab-stop"
                data-box="tab-stop"
                style={boxStyle(view(marker.rect))}
              >
                <span className="tab-stop-number">{marker.number}</span>
              </div>
            ))}
            {boxes.hovered ? <Box rect={view(boxes.hovered)} kind="row" /> : null}
            {boxes.selected ? <Box rect={view(boxes.selected)} kind="selected" /> : null}
            {!interact && chosen?.bounds ? (
              <Box rect={view(chosen.bounds)} kind="pointer" title={nodeLabel(chosen.node)} />
            ) : null}
          </div>
        ) : (
          <div role="img" aria-label="Screen" className="screen-placeholder">
            {error ? 'No screen' : 'Capturing the screen…'}
          </div>
        )}
      </div>
    </section>
  );
}
