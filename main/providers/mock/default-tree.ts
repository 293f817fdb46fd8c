/**
 * The mock provider's embedded default desktop, in the snapshot format: two applications with windows, a list, a
 * tree with items, a text box, a password box, buttons with the same name in different windows, nested unnamed
 * panels, and scripted negative cases (a button whose focus fails, a node that claims a pattern it cannot back).
 */
export const DEFAULT_MOCK_TREE = `<?xml version="1.0" encoding="UTF-8"?>
<snapshot xmlns="urn:platynui:control" xmlns:item="urn:platynui:item" xmlns:app="urn:platynui:app" xmlns:native="urn:platynui:native">
  <app:Application Name="Studio" RuntimeId="mock:app-studio" ProcessId="4242" ProcessName="studio" ExecutablePath="/usr/bin/studio" CommandLine="studio --project demo" SupportedPatterns='["Application"]'>
    <Window Name="Studio - demo" Id="main-window" RuntimeId="mock:window-studio" Bounds='{"x":100,"y":80,"width":1280,"height":800}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":740,"y":480}' SupportedPatterns='["Element","Focusable","Activatable","Minimizable","Maximizable","Restorable","Closeable","Movable","Resizable","Responsive","ActivationTarget"]'>
      <Pane RuntimeId="mock:pane-toolbar" Bounds='{"x":100,"y":110,"width":1280,"height":40}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element"]'>
        <Button Name="OK" Id="toolbar-ok" RuntimeId="mock:button-toolbar-ok" Bounds='{"x":110,"y":115,"width":80,"height":30}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":150,"y":130}' SupportedPatterns='["Element","Focusable","Activatable","ActivationTarget"]'/>
        <Button Name="Save" RuntimeId="mock:button-save" Bounds='{"x":200,"y":115,"width":80,"height":30}' IsVisible="true" IsEnabled="false" IsFocused="false" ActivationPoint='{"x":240,"y":130}' SupportedPatterns='["Element","Focusable","Activatable","ActivationTarget"]'/>
        <CheckBox Name="Auto save" Id="auto-save" RuntimeId="mock:checkbox-autosave" Bounds='{"x":300,"y":115,"width":120,"height":30}' IsVisible="true" IsEnabled="true" IsFocused="false" ToggleState="Off" ActivationPoint='{"x":360,"y":130}' SupportedPatterns='["Element","Focusable","Toggleable","ActivationTarget"]'/>
      </Pane>
      <Pane RuntimeId="mock:pane-body" Bounds='{"x":100,"y":150,"width":1280,"height":730}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element"]'>
        <Pane RuntimeId="mock:pane-nested-1" Bounds='{"x":100,"y":150,"width":400,"height":730}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element"]'>
          <Pane RuntimeId="mock:pane-nested-2" Bounds='{"x":100,"y":150,"width":400,"height":730}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element"]'>
            <Tree Name="Project" Id="project-tree" RuntimeId="mock:tree-project" Bounds='{"x":110,"y":160,"width":380,"height":700}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element","ItemContainer"]'>
              <item:TreeItem Name="src" RuntimeId="mock:treeitem-src" Bounds='{"x":110,"y":160,"width":380,"height":24}' IsVisible="true" IsEnabled="true" IsExpanded="true" IsSelected="false" ActivationPoint='{"x":300,"y":172}' SupportedPatterns='["Element","Expandable","Selectable","ActivationTarget"]'>
                <item:TreeItem Name="main.ts" RuntimeId="mock:treeitem-main" Bounds='{"x":130,"y":184,"width":360,"height":24}' IsVisible="true" IsEnabled="true" IsSelected="true" ActivationPoint='{"x":310,"y":196}' SupportedPatterns='["Element","Selectable","ActivationTarget"]'/>
                <item:TreeItem Name="util.ts" RuntimeId="mock:treeitem-util" Bounds='{"x":130,"y":208,"width":360,"height":24}' IsVisible="true" IsEnabled="true" IsSelected="false" ActivationPoint='{"x":310,"y":220}' SupportedPatterns='["Element","Selectable","ActivationTarget"]'/>
              </item:TreeItem>
              <item:TreeItem Name="docs" RuntimeId="mock:treeitem-docs" Bounds='{"x":110,"y":232,"width":380,"height":24}' IsVisible="true" IsEnabled="true" IsExpanded="false" IsSelected="false" ActivationPoint='{"x":300,"y":244}' SupportedPatterns='["Element","Expandable","Selectable","ActivationTarget"]'/>
            </Tree>
          </Pane>
        </Pane>
        <Pane RuntimeId="mock:pane-editor" Bounds='{"x":500,"y":150,"width":880,"height":730}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element"]'>
          <Edit Name="Search" Id="search-box" RuntimeId="mock:edit-search" Bounds='{"x":510,"y":160,"width":400,"height":28}' IsVisible="true" IsEnabled="true" IsFocused="false" IsReadOnly="false" Text="hello" ActivationPoint='{"x":710,"y":174}' SupportedPatterns='["Element","TextContent","TextEditable","Focusable","ActivationTarget"]'/>
          <List Name="Results" Id="results" RuntimeId="mock:list-results" Bounds='{"x":510,"y":200,"width":400,"height":300}' IsVisible="true" IsEnabled="true" SupportedPatterns='["Element","ItemContainer"]'>
            <item:ListItem Name="First result" RuntimeId="mock:listitem-1" Bounds='{"x":510,"y":200,"width":400,"height":24}' IsVisible="true" IsEnabled="true" IsSelected="false" Text="First result" ActivationPoint='{"x":710,"y":212}' SupportedPatterns='["Element","TextContent","Selectable","ActivationTarget"]'/>
            <item:ListItem Name="Second result" RuntimeId="mock:listitem-2" Bounds='{"x":510,"y":224,"width":400,"height":24}' IsVisible="true" IsEnabled="true" IsSelected="true" Text="Second result" ActivationPoint='{"x":710,"y":236}' SupportedPatterns='["Element","TextContent","Selectable","ActivationTarget"]'/>
            <item:ListItem Name="Third result" RuntimeId="mock:listitem-3" Bounds='{"x":510,"y":248,"width":400,"height":24}' IsVisible="true" IsEnabled="true" IsSelected="false" Text="Third result" ActivationPoint='{"x":710,"y":260}' SupportedPatterns='["Element","TextContent","Selectable","ActivationTarget"]'/>
          </List>
          <Button Name="Flaky" RuntimeId="mock:button-flaky" Bounds='{"x":510,"y":520,"width":80,"height":30}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":550,"y":535}' native:ScriptedFailure="focus" SupportedPatterns='["Element","Focusable","Activatable","ActivationTarget"]'/>
        </Pane>
      </Pane>
    </Window>
    <Window Name="Preferences" RuntimeId="mock:window-preferences" Bounds='{"x":-1800,"y":400,"width":600,"height":400}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":-1500,"y":600}' SupportedPatterns='["Element","Focusable","Activatable","Minimizable","Maximizable","Restorable","Closeable","Movable","Resizable","Responsive","ActivationTarget"]'>
      <Button Name="OK" RuntimeId="mock:button-preferences-ok" Bounds='{"x":-1700,"y":740,"width":80,"height":30}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":-1660,"y":755}' SupportedPatterns='["Element","Focusable","Activatable","ActivationTarget"]'/>
      <Button Name="Cancel" RuntimeId="mock:button-preferences-cancel" Bounds='{"x":-1600,"y":740,"width":80,"height":30}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":-1560,"y":755}' SupportedPatterns='["Element","Focusable","Activatable","ActivationTarget"]'/>
    </Window>
  </app:Application>
  <app:Application Name="Login" RuntimeId="mock:app-login" ProcessId="5151" ProcessName="login" ExecutablePath="/usr/bin/login-tool" CommandLine="login-tool" SupportedPatterns='["Application"]'>
    <Window Name="Sign in" RuntimeId="mock:window-login" Bounds='{"x":4000,"y":200,"width":500,"height":300}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":4250,"y":350}' SupportedPatterns='["Element","Focusable","Activatable","Minimizable","Maximizable","Restorable","Closeable","Movable","Resizable","Responsive","ActivationTarget"]'>
      <Edit Name="User" Id="user" RuntimeId="mock:edit-user" Bounds='{"x":4050,"y":240,"width":300,"height":28}' IsVisible="true" IsEnabled="true" IsFocused="false" IsReadOnly="false" Text="alice" ActivationPoint='{"x":4200,"y":254}' SupportedPatterns='["Element","TextContent","TextEditable","Focusable","ActivationTarget"]'/>
      <PasswordText Name="Password" Id="password" RuntimeId="mock:password" Bounds='{"x":4050,"y":280,"width":300,"height":28}' IsVisible="true" IsEnabled="true" IsFocused="false" IsSecure="true" IsReadOnly="false" Text="s3cr3t-hunter2" ActivationPoint='{"x":4200,"y":294}' SupportedPatterns='["Element","Focusable","ActivationTarget"]'/>
      <Button Name="OK" RuntimeId="mock:button-login-ok" Bounds='{"x":4050,"y":330,"width":80,"height":30}' IsVisible="true" IsEnabled="true" IsFocused="false" ActivationPoint='{"x":4090,"y":345}' SupportedPatterns='["Element","Focusable","Activatable","ActivationTarget"]'/>
      <Slider Name="Volume" RuntimeId="mock:slider-broken" Bounds='{"x":4050,"y":370,"width":300,"height":20}' IsVisible="true" IsEnabled="true" native:ScriptedFailure="contract" SupportedPatterns='["Element","StatefulValue"]'/>
    </Window>
  </app:Application>
</snapshot>
`;

/** The secret of the default tree's password box; tests check it never leaks. */
export const DEFAULT_MOCK_SECRET = 's3cr3t-hunter2';
